import type { Translate } from '@/lib/i18n/locale';
import { leaveSlots } from '@/lib/i18n/slots';

/** The words of the guest page's help actions, translated on the server (decision 013: no i18n runtime on the phone). */
export function guestHelpWords(t: Translate) {
  return {
    messageLabel: t('guestHelp.messageLabel'),
    messageHint: t('guestHelp.messageHint'),
    send: t('guestHelp.send'),
    sending: t('guestHelp.sending'),
    sent: t('guestHelp.sent'),
    failed: t('guestHelp.failed'),
    tooMany: t('guestHelp.tooMany'),
    empty: t('guestHelp.empty'),
    tooLong: t('guestHelp.tooLong'),
    codeProblem: t('guestHelp.codeProblem'),
    codeProblemConfirm: t('guestHelp.codeProblemConfirm'),
    codeProblemYes: t('guestHelp.codeProblemYes'),
    codeProblemNo: t('guestHelp.codeProblemNo'),
    codeProblemSending: t('guestHelp.codeProblemSending'),
    codeProblemSent: t('guestHelp.codeProblemSent'),
    codeProblemFailed: t('guestHelp.codeProblemFailed'),
    backupTitle: t('guestHelp.backupTitle'),
    backupHint: t('guestHelp.backupHint'),
    pinAria: leaveSlots((values) => t('guest.pinAria', values), 'digits'),
  };
}

export type GuestHelpWords = ReturnType<typeof guestHelpWords>;
