import type { Translate } from '@/lib/i18n/locale';
import { leaveSlots } from '@/lib/i18n/slots';

/**
 * Every word of the guest register's form, translated on the server in the guest's language and
 * handed down as a prop: the key page loads no i18n runtime (decision 013). A guest's number, a file's
 * name and the upload's progress are only known on the phone, so those keep their slot.
 */
export function guestRegisterWords(t: Translate) {
  const slots = <N extends string>(key: Parameters<Translate>[0], ...names: N[]) =>
    leaveSlots<N>((values) => t(key, values), ...names);
  return {
    title: t('guestRegister.title'),
    lead: t('guestRegister.lead'),
    guest: slots('guestRegister.guest', 'n'),
    name: t('guestRegister.name'),
    address: t('guestRegister.address'),
    addressInJapan: t('guestRegister.addressInJapan'),
    nationality: t('guestRegister.nationality'),
    chooseCountry: t('guestRegister.chooseCountry'),
    occupation: t('guestRegister.occupation'),
    passportNumber: t('guestRegister.passportNumber'),
    passportImage: t('guestRegister.passportImage'),
    passportHint: t('guestRegister.passportHint'),
    passportNeeded: t('guestRegister.passportNeeded'),
    passportChosen: slots('guestRegister.passportChosen', 'file'),
    add: t('guestRegister.add'),
    remove: slots('guestRegister.remove', 'n'),
    submit: t('guestRegister.submit'),
    uploading: slots('guestRegister.uploading', 'percent'),
    complete: t('guestRegister.complete'),
    completeHint: t('guestRegister.completeHint'),
    errors: {
      summary: t('guestRegister.errors.summary'),
      required: t('guestRegister.errors.required'),
      country: t('guestRegister.errors.country'),
      passportNumber: t('guestRegister.errors.passportNumber'),
      passportImage: t('guestRegister.errors.passportImage'),
      tooLarge: t('guestRegister.errors.tooLarge'),
      notImage: t('guestRegister.errors.notImage'),
      invalid: t('guestRegister.errors.invalid'),
      failed: t('guestRegister.errors.failed'),
      closed: t('guestRegister.errors.closed'),
      rateLimited: t('guestRegister.errors.rateLimited'),
    },
  };
}

export type GuestRegisterWords = ReturnType<typeof guestRegisterWords>;
