'use client';

import { Notice } from '@/components/ui/notice';
import { useTranslations } from 'next-intl';
import { useActionState, useEffect, useRef, useState } from 'react';
import { revokeApiKeyAction } from '@/app/manage/api-keys/actions';
import { Button } from '@/components/ui/button';

type Props = {
  apiKeyId: string;
  /** False once the key is revoked: only the outcome of a revocation made here is shown. */
  live: boolean;
  /** The key's name, for the warning that whatever uses it stops working. */
  name: string;
};

/**
 * "Revoke" in two steps: the first click asks, "Confirm revoke" submits. Rendered for every key so
 * that the confirmation survives the row turning revoked on revalidation.
 */
export function RevokeApiKeyButton({ apiKeyId, live, name }: Props) {
  const t = useTranslations('apiKeys.revoke');
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
        {t('done')}
      </Notice>
    ) : null;
  }

  return (
    <div className="revoke-confirm">
      {confirming ? (
        <form action={action} className="revoke-confirm__form">
          <input type="hidden" name="apiKeyId" value={apiKeyId} />
          <p className="revoke-confirm__warning">{t('warning', { name })}</p>
          <div className="revoke-confirm__buttons">
            <Button
              variant="danger"
              size="compact"
              ref={confirmRef}
              type="submit"
              disabled={pending}
              data-testid="api-key-revoke-confirm"
            >
              {pending ? t('pending') : t('confirm')}
            </Button>
            <Button
              variant="ghost"
              size="compact"
              onClick={() => setConfirming(false)}
              disabled={pending}
              data-testid="api-key-revoke-cancel"
            >
              {t('cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <Button size="compact" ref={revokeRef} onClick={() => setConfirming(true)} data-testid="api-key-revoke">
          {t('submit')}
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
