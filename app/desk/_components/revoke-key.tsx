'use client';

import { useActionState, useId } from 'react';
import { revokeKeyAction } from '@/app/desk/actions';

export type RevokeKeyLabels = {
  title: string;
  reason: string;
  hint: string;
  submit: string;
  pending: string;
  done: string;
};

type Props = {
  keyId: string;
  /** Whether the key can still be revoked (pre-issued or active). */
  live: boolean;
  labels: RevokeKeyLabels;
};

/**
 * "Revoke key" with a required reason; errors from the server show inline beside the field.
 * Rendered for every key so that the confirmation survives the key turning revoked on revalidation.
 */
export function RevokeKeyForm({ keyId, live, labels }: Props) {
  const [state, action, pending] = useActionState(revokeKeyAction, null);
  const id = useId();
  if (!live) {
    if (state?.ok) {
      return (
        <p role="status" className="inline-success">
          {labels.done}
        </p>
      );
    }
    // e.g. "already revoked or expired": the key changed under us and the page has caught up.
    return state ? (
      <p role="alert" className="inline-error">
        {state.error.message}
      </p>
    ) : null;
  }
  const failed = state && !state.ok ? state : null;
  const fieldId = `${id}-reason`;
  return (
    // noValidate: the server's message (translated, inline) is the one the user sees.
    <form action={action} noValidate className="form revoke-form" aria-label={labels.title}>
      <input type="hidden" name="keyId" value={keyId} />
      <div className="field">
        <label htmlFor={fieldId} className="field__label">
          {labels.reason}
        </label>
        <input
          id={fieldId}
          name="reason"
          type="text"
          required
          autoComplete="off"
          className="input"
          // React resets a form after its action: keep what was typed when it comes back with an error.
          defaultValue={failed?.values.reason ?? ''}
          key={failed ? `error-${failed.error.message}-${failed.values.reason}` : 'fresh'}
          aria-invalid={failed?.error.field === 'reason' ? true : undefined}
          aria-describedby={`${id}-hint ${id}-error`}
        />
        <p id={`${id}-hint`} className="field__hint">
          {labels.hint}
        </p>
      </div>
      <p id={`${id}-error`} role="alert" className="form__error">
        {failed?.error.message}
      </p>
      <div>
        <button type="submit" className="button button--danger" disabled={pending}>
          {pending ? labels.pending : labels.submit}
        </button>
      </div>
    </form>
  );
}
