'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { cancelStayAction } from '@/app/desk/stay-actions';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/notice';

/** "Release": cancels an unpaid hold at once (the room free, its keys revoked), with the reason the audit keeps. */
export function ReleaseHold({ reservationId, guest }: { reservationId: string; guest: string }) {
  const t = useTranslations('holds');
  const [state, action, pending] = useActionState(cancelStayAction, null);
  if (state?.ok) return <span data-testid="hold-released">{t('released')}</span>;
  return (
    <form action={action}>
      <input type="hidden" name="reservationId" value={reservationId} />
      <input type="hidden" name="reason" value={t('reason')} />
      <Button type="submit" loading={pending} aria-label={t('releaseNamed', { guest })} data-testid="hold-release">
        {t('release')}
      </Button>
      <FormError as="div">{state && !state.ok ? state.error.message : null}</FormError>
    </form>
  );
}
