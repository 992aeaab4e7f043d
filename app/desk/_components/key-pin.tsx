'use client';

import { Notice } from '@/components/ui/notice';
import { useTranslations } from 'next-intl';
import { useActionState, useEffect, useRef } from 'react';
import { revealPinAction } from '@/app/desk/actions';
import { Button } from '@/components/ui/button';

type Props = {
  keyId: string;
  /** False when the staff member may not reveal PINs: the mask is shown alone. */
  canReveal: boolean;
};

const MASK = '••••••';

/** A key's PIN, masked; "Reveal PIN" asks the server (audited) and shows it for this page view only. */
export function KeyPin({ keyId, canReveal }: Props) {
  const t = useTranslations('key');
  const [state, action, pending] = useActionState(revealPinAction, null);
  const revealedRef = useRef<HTMLSpanElement>(null);

  // The button is replaced by the PIN: keep keyboard focus on what took its place.
  useEffect(() => {
    if (state?.ok) revealedRef.current?.focus();
  }, [state]);

  if (state?.ok) {
    return (
      <span className="key-pin" role="status">
        <span ref={revealedRef} tabIndex={-1} className="pin-inline" data-testid="revealed-pin">
          {state.data.pin}
        </span>
        <span className="key-pin__note">{t('reveal.note')}</span>
      </span>
    );
  }
  return (
    <span className="key-pin">
      <span className="pin-mask" role="img" aria-label={t('pinHidden')}>
        {MASK}
      </span>
      {canReveal && (
        <form action={action} className="inline-action">
          <input type="hidden" name="keyId" value={keyId} />
          <Button size="compact" type="submit" disabled={pending}>
            {pending ? t('reveal.pending') : t('reveal.submit')}
          </Button>
        </form>
      )}
      {state && !state.ok && (
        <Notice as="span" tone="error" variant="inline">
          {state.error.message}
        </Notice>
      )}
    </span>
  );
}
