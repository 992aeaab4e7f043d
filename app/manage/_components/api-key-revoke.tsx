'use client';

import { Notice } from '@/components/ui/notice';
import { useActionState, useEffect, useRef, useState } from 'react';
import { revokeApiKeyAction } from '@/app/manage/api-keys/actions';
import { Button } from '@/components/ui/button';

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
      <Notice tone="success" variant="inline">
        {labels.done}
      </Notice>
    ) : null;
  }

  return (
    <div className="revoke-confirm">
      {confirming ? (
        <form action={action} className="revoke-confirm__form">
          <input type="hidden" name="apiKeyId" value={apiKeyId} />
          <p className="revoke-confirm__warning">{labels.warning}</p>
          <div className="revoke-confirm__buttons">
            <Button
              variant="danger"
              size="compact"
              ref={confirmRef}
              type="submit"
              disabled={pending}
              data-testid="api-key-revoke-confirm"
            >
              {pending ? labels.pending : labels.confirm}
            </Button>
            <Button
              variant="ghost"
              size="compact"
              onClick={() => setConfirming(false)}
              disabled={pending}
              data-testid="api-key-revoke-cancel"
            >
              {labels.cancel}
            </Button>
          </div>
        </form>
      ) : (
        <Button size="compact" ref={revokeRef} onClick={() => setConfirming(true)} data-testid="api-key-revoke">
          {labels.revoke}
        </Button>
      )}
      {state && !state.ok && (
        <Notice tone="error" variant="inline">
          {state.error.message}
        </Notice>
      )}
    </div>
  );
}
