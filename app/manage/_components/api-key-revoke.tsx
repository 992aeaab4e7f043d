'use client';

import { useActionState, useEffect, useRef, useState } from 'react';
import { revokeApiKeyAction } from '@/app/manage/api-keys/actions';

export type RevokeApiKeyLabels = {
  revoke: string;
  confirm: string;
  cancel: string;
  pending: string;
  warning: string;
  done: string;
};

type Props = {
  apiKeyId: string;
  /** False once the key is revoked: only the outcome of a revocation made here is shown. */
  live: boolean;
  labels: RevokeApiKeyLabels;
};

/**
 * "Revoke" in two steps: the first click asks, "Confirm revoke" submits. Rendered for every key so
 * that the confirmation survives the row turning revoked on revalidation.
 */
export function RevokeApiKeyButton({ apiKeyId, live, labels }: Props) {
  const [state, action, pending] = useActionState(revokeApiKeyAction, null);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  // Keep keyboard focus on whichever button replaced the one just pressed.
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (wasConfirming.current) revokeRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  if (!live) {
    return state?.ok ? (
      <p role="status" className="inline-success inline-success--flush">
        {labels.done}
      </p>
    ) : null;
  }

  return (
    <div className="revoke-confirm">
      {confirming ? (
        <form action={action} className="revoke-confirm__form">
          <input type="hidden" name="apiKeyId" value={apiKeyId} />
          <p className="revoke-confirm__warning">{labels.warning}</p>
          <div className="revoke-confirm__buttons">
            <button
              ref={confirmRef}
              type="submit"
              className="button button--danger button--compact"
              disabled={pending}
              data-testid="api-key-revoke-confirm"
            >
              {pending ? labels.pending : labels.confirm}
            </button>
            <button
              type="button"
              className="button button--ghost button--compact"
              onClick={() => setConfirming(false)}
              disabled={pending}
              data-testid="api-key-revoke-cancel"
            >
              {labels.cancel}
            </button>
          </div>
        </form>
      ) : (
        <button
          ref={revokeRef}
          type="button"
          className="button button--secondary button--compact"
          onClick={() => setConfirming(true)}
          data-testid="api-key-revoke"
        >
          {labels.revoke}
        </button>
      )}
      {state && !state.ok && (
        <p role="alert" className="inline-error">
          {state.error.message}
        </p>
      )}
    </div>
  );
}
