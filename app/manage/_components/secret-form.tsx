'use client';

import { useActionState, useId } from 'react';
import { setProviderSecretAction } from '@/app/manage/secrets/actions';

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
      <div className="field">
        <label htmlFor={`${id}-value`} className="field__label">
          {labels.field}
        </label>
        <input
          id={`${id}-value`}
          name="value"
          type="password"
          required
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
          className="input mono"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint ${id}-error`}
          data-testid={`secret-value-${provider}`}
        />
        <p id={`${id}-hint`} className="field__hint">
          {labels.hint}
        </p>
      </div>
      <p id={`${id}-error`} role="alert" className="form__error">
        {error?.message}
      </p>
      <div className="form__submit-row">
        <button
          type="submit"
          className="button button--primary"
          disabled={pending}
          data-testid={`secret-save-${provider}`}
        >
          {pending ? labels.pending : labels.submit}
        </button>
        <span role="status" className="inline-success inline-success--flush" data-testid={`secret-saved-${provider}`}>
          {state?.ok ? labels.saved.replace('{version}', String(state.data.keyVersion)) : ''}
        </span>
      </div>
    </form>
  );
}
