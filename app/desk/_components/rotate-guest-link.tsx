'use client';

import { formErrorClassName } from '@/components/ui/notice';
import { FieldHint } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { rotateGuestLinkAction } from '@/app/desk/actions';
import { Button } from '@/components/ui/button';

/** "Replace the guest link": the current link and its PIN stop working at once (audited, the key re-issued); the page shows the new link. */
export function RotateGuestLinkForm({ reservationId }: { reservationId: string }) {
  const t = useTranslations('reservation.guestLink');
  const [state, action, pending] = useActionState(rotateGuestLinkAction, null);
  const id = useId();
  return (
    <form action={action} className="form" data-testid="rotate-guest-link-form">
      <input type="hidden" name="reservationId" value={reservationId} />
      <FieldHint id={`${id}-hint`}>{t('rotateHint')}</FieldHint>
      <div>
        <Button type="submit" disabled={pending} aria-describedby={`${id}-hint`}>
          {pending ? t('rotatePending') : t('rotate')}
        </Button>
      </div>
      <p
        role="status"
        className={state && !state.ok ? formErrorClassName : 'muted small'}
        data-testid="rotate-guest-link-result"
      >
        {state ? (state.ok ? t('rotated') : state.error.message) : null}
      </p>
    </form>
  );
}
