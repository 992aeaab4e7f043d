'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId, type ReactNode } from 'react';
import type { ActionResult, ActionState } from '@/components/ui/action-state';
import { Button } from '@/components/ui/button';
import { ActionInput } from '@/components/ui/action-field';
import { FormError, Notice } from '@/components/ui/notice';

type Props<T, E extends Record<string, 'text'>> = {
  /** The server action: fields `current` (with `withCurrent`), `next` and `confirm`, plus `hidden`. */
  action: (previous: ActionState<T, E>, form: FormData) => Promise<ActionResult<T, E>>;
  /** Ask for the current password first (a change, not a first password or a reset). */
  withCurrent?: boolean;
  /** Fields sent along unseen (a link's token, where to go next). */
  hidden?: Record<string, string>;
  /** The account's email, as the password manager should store it. */
  username?: string;
  submit: string;
  /** Said once the action succeeded (actions that redirect instead never show it). */
  done?: string;
  /** Once the action succeeded, show only `done` (the form has nothing more to do: "check your mail"). */
  doneOnly?: boolean;
  /** The form's other fields, before the password (sign-up's organisation and name), bound to the same answer. */
  fields?: (state: ActionState<T, E>) => ReactNode;
  /** The new password's labels, when "new" would read oddly (a first password at sign-up). */
  newLabel?: string;
  confirmLabel?: string;
  testId: string;
};

/**
 * Choosing a password, the one form for every place it happens (a change, the first password after a
 * one-time one, a reset link, an invitation's link): the new one twice, the rules in a hint, and the
 * answer's message at the field it is about. Passwords are never sent back to the form.
 */
export function PasswordForm<T, E extends Record<string, 'text'> = Record<never, never>>({
  action,
  withCurrent = false,
  hidden = {},
  username,
  submit,
  done,
  doneOnly = false,
  fields,
  newLabel,
  confirmLabel,
  testId,
}: Props<T, E>) {
  const t = useTranslations('account.password');
  const [state, formAction, pending] = useActionState(action, null);
  const id = useId();
  // Passwords are never sent back: each field is bound to the answer for its message only.
  const secret = (name: string) => ({ state, name, id: `${id}-${name}`, echo: false });
  const general = state && !state.ok && !state.error.field && !state.error.fieldErrors ? state.error.message : null;
  if (state?.ok && done && doneOnly)
    return (
      <Notice tone="success" data-testid={`${testId}-done`}>
        {done}
      </Notice>
    );

  return (
    <form action={formAction} className="form" data-testid={testId} key={state?.attempt ?? 0}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {username && <input type="hidden" name="username" autoComplete="username" value={username} />}
      {fields?.(state)}
      {withCurrent && (
        <ActionInput
          {...secret('current')}
          label={t('current')}
          type="password"
          autoComplete="current-password"
          required
          maxLength={1024}
        />
      )}
      <ActionInput
        {...secret('next')}
        label={newLabel ?? t('new')}
        hint={t('hint')}
        type="password"
        autoComplete="new-password"
        required
        maxLength={1024}
      />
      <ActionInput
        {...secret('confirm')}
        label={confirmLabel ?? t('confirm')}
        type="password"
        autoComplete="new-password"
        required
        maxLength={1024}
      />
      <FormError as="div" id={`${id}-error`} data-testid={`${testId}-error`}>
        {general}
      </FormError>
      {state?.ok && done && (
        <Notice tone="success" data-testid={`${testId}-done`}>
          {done}
        </Notice>
      )}
      <div className="form__submit-row">
        <Button variant="primary" type="submit" loading={pending} data-testid={`${testId}-submit`}>
          {submit}
        </Button>
      </div>
    </form>
  );
}
