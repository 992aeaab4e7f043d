import type { Translate } from '@/lib/i18n/locale';
import { leaveSlots } from '@/lib/i18n/slots';

/**
 * Every word the guest key shows, translated on the server in the guest's language: the component
 * gets them as a prop instead of loading next-intl on the phone (decision 013). The PIN and the time
 * a pre-issued key starts are only known on the client, so those messages keep their slot.
 */
export function guestKeyWords(t: Translate) {
  return {
    status: {
      loading: t('guest.loading'),
      activating: t('guest.activating'),
      ready: t('guest.ready'),
      failed: t('guest.failed'),
      revoked: t('guest.revoked'),
      expired: t('guest.expired'),
      notFound: t('guest.notFound'),
      notReady: t('guest.notReady'),
      error: t('guest.error'),
      thanks: t('guestStay.thanksTitle'),
      cancelled: t('guestStay.cancelledTitle'),
      checkInClosed: t('guestHome.checkInClosed'),
      checkInOpen: t('guestHome.checkInOpen'),
    },
    activatingHint: t('guest.activatingHint'),
    notReadyHint: t('guest.notReadyHint'),
    pinLabel: t('guest.pinLabel'),
    pinAria: leaveSlots((values) => t('guest.pinAria', values), 'digits'),
    howTo: t('guest.howTo'),
    backupNote: t('guest.backupNote'),
    lockWindow: { updating: t('guest.lockWindowUpdating'), failed: t('guest.lockWindowFailed') },
    validFrom: t('guest.validFrom'),
    validUntil: t('guest.validUntil'),
    refresh: t('guest.refresh'),
    refreshing: t('guest.refreshing'),
    worksFromStatus: leaveSlots((values) => t('guestStay.worksFromStatus', values), 'time'),
    pinChanged: t('guestStay.pinChanged'),
    pinChangedHint: t('guestStay.pinChangedHint'),
    pinGone: t('guestStay.pinGone'),
    dismiss: t('guestStay.dismiss'),
    copyPin: t('guestStay.copyPin'),
    copied: t('guestStay.copied'),
    copyFailed: t('guestStay.copyFailed'),
    selfService: selfServiceWords(t),
  };
}

/** The words of the self check-in and early check-out (issue 31), for the same component. */
function selfServiceWords(t: Translate) {
  return {
    checkInOpensStatus: leaveSlots((values) => t('guestHome.checkInOpensStatus', values), 'time'),
    checkInHint: t('guestHome.checkInHint'),
    checkInButton: t('guestHome.checkInButton'),
    checkingIn: t('guestHome.checkingIn'),
    checkInRefused: {
      failed: t('guestHome.checkInFailed'),
      too_early: t('guestHome.checkInTooEarly'),
      registration_required: t('guestHome.checkInRegistration'),
      desk_check_in: t('guestHome.checkInDesk'),
    },
    checkOutHeading: t('guestHome.checkOutHeading'),
    checkOutButton: t('guestHome.checkOutButton'),
    checkOutConfirmTitle: t('guestHome.checkOutConfirmTitle'),
    checkOutConfirmBody: t('guestHome.checkOutConfirmBody'),
    checkOutConfirm: t('guestHome.checkOutConfirm'),
    checkOutCancel: t('guestHome.checkOutCancel'),
    checkingOut: t('guestHome.checkingOut'),
    checkOutFailed: t('guestHome.checkOutFailed'),
  };
}

export type SelfServiceWords = ReturnType<typeof selfServiceWords>;

export type GuestKeyWords = ReturnType<typeof guestKeyWords>;
