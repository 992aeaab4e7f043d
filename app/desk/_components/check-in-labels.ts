import type { Translate } from '@/lib/i18n/locale';

/** The check-in form's texts, the same on the desk list and on a reservation's page. */
export function checkInLabels(t: Translate) {
  return {
    submit: t('checkIn.submit'),
    early: t('checkIn.early'),
    pending: t('checkIn.pending'),
    resultTitle: t('checkIn.resultTitle'),
    room: t('checkIn.room'),
    newPin: t('checkIn.newPin'),
    revoked: t('checkIn.revoked'),
    noneRevoked: t('checkIn.noneRevoked'),
    handOver: t('checkIn.handOver'),
    dismiss: t('checkIn.dismiss'),
  };
}
