'use client';

import { FormError, Notice } from '@/components/ui/notice';
import { Field, Input } from '@/components/ui/field';
import { useFormatter, useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { revokeKeyAction } from '@/app/desk/actions';
import { Button } from '@/components/ui/button';

type Props = {
  keyId: string;
  /** Whether the key can still be revoked (pre-issued or active). */
  live: boolean;
  /**
   * The key's end when one of its doors holds an offline code: revoking cannot take that code off
   * the lock, which keeps opening until then — said before revoking and after.
   */
  offlineUntil?: Date | null;
  /** The facility's IANA zone, which that end is written in. */
  timeZone: string;
};

/**
 * "Revoke key" with a required reason; errors from the server show inline beside the field.
 * Rendered for every key so that the confirmation survives the key turning revoked on revalidation.
 */
export function RevokeKeyForm({ keyId, live, offlineUntil = null, timeZone }: Props) {
  const t = useTranslations('key.revoke');
  const format = useFormatter();
  const [state, action, pending] = useActionState(revokeKeyAction, null);
  const id = useId();
  const end = offlineUntil ? format.dateTime(offlineUntil, 'stamp', { timeZone }) : null;
  if (!live) {
    if (state?.ok) {
      return end ? (
        <Notice tone="warning" variant="inline" spaced data-testid="revoke-done">
          {t('doneOffline', { end })}
        </Notice>
      ) : (
        <Notice tone="success" variant="inline" spaced data-testid="revoke-done">
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
      {end && (
        <Notice tone="warning" announce={false} id={`${id}-offline`} data-testid="revoke-offline-warning">
          {t('offlineWarning', { end })}
        </Notice>
      )}
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
        <Button variant="danger" type="submit" disabled={pending} aria-describedby={end ? `${id}-offline` : undefined}>
          {pending ? t('pending') : t('submit')}
        </Button>
      </div>
    </form>
  );
}
