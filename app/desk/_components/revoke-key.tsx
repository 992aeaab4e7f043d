'use client';

import { FormError, Notice } from '@/components/ui/notice';
import { Field, Input } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { revokeKeyAction } from '@/app/desk/actions';
import { Button } from '@/components/ui/button';

type Props = {
  keyId: string;
  /** Whether the key can still be revoked (pre-issued or active). */
  live: boolean;
};

/**
 * "Revoke key" with a required reason; errors from the server show inline beside the field.
 * Rendered for every key so that the confirmation survives the key turning revoked on revalidation.
 */
export function RevokeKeyForm({ keyId, live }: Props) {
  const t = useTranslations('key.revoke');
  const [state, action, pending] = useActionState(revokeKeyAction, null);
  const id = useId();
  if (!live) {
    if (state?.ok) {
      return (
        <Notice tone="success" variant="inline" spaced>
          {t('done')}
        </Notice>
      );
    }
    // e.g. "already revoked or expired": the key changed under us and the page has caught up.
    return state ? (
      <Notice tone="error" variant="inline">
        {state.error.message}
      </Notice>
    ) : null;
  }
  const failed = state && !state.ok ? state : null;
  const fieldId = `${id}-reason`;
  return (
    // noValidate: the server's message (translated, inline) is the one the user sees.
    <form action={action} noValidate className="form revoke-form" aria-label={t('title')}>
      <input type="hidden" name="keyId" value={keyId} />
      <Field id={fieldId} label={t('reason')} hint={t('reasonHint')} describedBy={`${id}-error`}>
        {(control) => (
          <Input
            {...control}
            name="reason"
            type="text"
            required
            autoComplete="off"
            // React resets a form after its action: keep what was typed when it comes back with an error.
            defaultValue={failed?.values.reason ?? ''}
            key={failed ? `error-${failed.error.message}-${failed.values.reason}` : 'fresh'}
            aria-invalid={failed?.error.field === 'reason' ? true : undefined}
          />
        )}
      </Field>
      <FormError id={`${id}-error`}>{failed?.error.message}</FormError>
      <div>
        <Button variant="danger" type="submit" disabled={pending}>
          {pending ? t('pending') : t('submit')}
        </Button>
      </div>
    </form>
  );
}
