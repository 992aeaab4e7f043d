'use client';

import { FormError, Notice } from '@/components/ui/notice';
import { Field, Input } from '@/components/ui/field';
import { useActionState, useId } from 'react';
import { setProviderSecretAction } from '@/app/manage/secrets/actions';
import { Button } from '@/components/ui/button';

export type SecretFormLabels = { field: string; hint: string; submit: string; pending: string; saved: string };

type Props = {
  provider: 'calendly' | 'cal' | 'lock_vendor';
  labels: SecretFormLabels;
};

/**
 * Sets or replaces one provider secret. The value is write-only: the field is a password input,
 * React clears it after every answer, and the server never sends it back.
 */
export function SecretForm({ provider, labels }: Props) {
  const [state, action, pending] = useActionState(setProviderSecretAction, null);
  const id = useId();
  const error = state && !state.ok ? state.error : null;
  return (
    <form action={action} noValidate className="form" data-testid={`secret-form-${provider}`}>
      <input type="hidden" name="provider" value={provider} />
      <Field id={`${id}-value`} label={labels.field} hint={labels.hint} describedBy={`${id}-error`}>
        {(control) => (
          <Input
            {...control}
            mono
            name="value"
            type="password"
            required
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="off"
            aria-invalid={error ? true : undefined}
            data-testid={`secret-value-${provider}`}
          />
        )}
      </Field>
      <FormError id={`${id}-error`}>{error?.message}</FormError>
      <div className="form__submit-row">
        <Button variant="primary" type="submit" disabled={pending} data-testid={`secret-save-${provider}`}>
          {pending ? labels.pending : labels.submit}
        </Button>
        <Notice as="span" tone="success" variant="inline" data-testid={`secret-saved-${provider}`}>
          {state?.ok ? labels.saved.replace('{version}', String(state.data.keyVersion)) : ''}
        </Notice>
      </div>
    </form>
  );
}
