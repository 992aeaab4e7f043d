import type { Translate } from '@/lib/i18n/locale';
import { leaveSlots } from '@/lib/i18n/slots';

/**
 * Every word of the booking site's Client Components, translated on the server in the visitor's
 * language and handed down as a prop: the page loads no i18n runtime (decision 013). What only the
 * browser learns (a date picked, an email typed, seconds to wait) stays a slot for `fill`.
 */
export function bookingWords(t: Translate) {
  const slots = <N extends string>(key: Parameters<Translate>[0], ...names: N[]) =>
    leaveSlots<N>((values) => t(key, values), ...names);
  return {
    stepOf: slots('bookingSite.stepOf', 'step', 'total', 'name'),
    steps: {
      dates: t('bookingSite.steps.dates'),
      time: t('bookingSite.steps.time'),
      room: t('bookingSite.steps.room'),
      details: t('bookingSite.steps.details'),
      code: t('bookingSite.steps.code'),
    },
    stepsLabel: t('bookingSite.stepsLabel'),
    stepDone: t('bookingSite.stepDone'),
    stepCurrent: t('bookingSite.stepCurrent'),
    calendar: {
      previous: t('bookingSite.calendar.previous'),
      next: t('bookingSite.calendar.next'),
      legend: t('bookingSite.calendar.legend'),
      pickCheckIn: t('bookingSite.calendar.pickCheckIn'),
      pickCheckOut: slots('bookingSite.calendar.pickCheckOut', 'date'),
      pickDay: t('bookingSite.calendar.pickDay'),
      loading: t('bookingSite.calendar.loading'),
      nothingFree: slots('bookingSite.calendar.nothingFree', 'month'),
      roleCheckIn: t('bookingSite.calendar.roleCheckIn'),
      roleCheckOut: t('bookingSite.calendar.roleCheckOut'),
      roleInStay: t('bookingSite.calendar.roleInStay'),
      tooLong: t('bookingSite.calendar.tooLong'),
      clear: t('bookingSite.calendar.clear'),
      range: slots('bookingSite.calendar.summaryNights', 'from', 'to'),
    },
    level: {
      available: t('bookingSite.level.available'),
      few: t('bookingSite.level.few'),
      full: t('bookingSite.level.full'),
      past: t('bookingSite.level.past'),
      unknown: t('bookingSite.level.unknown'),
    },
    nights: { one: slots('bookingSite.nights.one', 'count'), other: slots('bookingSite.nights.other', 'count') },
    time: {
      start: t('bookingSite.time.start'),
      end: t('bookingSite.time.end'),
      show: t('bookingSite.time.show'),
      none: t('bookingSite.time.none'),
      pickStart: t('bookingSite.time.pickStart'),
      pickEnd: t('bookingSite.time.pickEnd'),
    },
    rooms: {
      heading: t('bookingSite.rooms.heading'),
      for: slots('bookingSite.rooms.for', 'when'),
      capacity: slots('bookingSite.rooms.capacity', 'count'),
      price: slots('bookingSite.rooms.price', 'amount'),
      checking: t('bookingSite.rooms.checking'),
      unavailable: t('bookingSite.rooms.unavailable'),
      choose: slots('bookingSite.rooms.choose', 'name'),
      chooseShort: t('bookingSite.rooms.chooseShort'),
      empty: t('bookingSite.rooms.empty'),
      noneFree: t('bookingSite.rooms.noneFree'),
      changeDates: t('bookingSite.rooms.changeDates'),
    },
    details: {
      heading: t('bookingSite.details.heading'),
      summary: t('bookingSite.details.summary'),
      room: t('bookingSite.details.room'),
      when: t('bookingSite.details.when'),
      price: t('bookingSite.details.price'),
      name: t('bookingSite.details.name'),
      email: t('bookingSite.details.email'),
      emailHint: t('bookingSite.details.emailHint'),
      phone: t('bookingSite.details.phone'),
      terms: t('bookingSite.details.terms'),
      readTerms: t('bookingSite.details.readTerms'),
      readPrivacy: t('bookingSite.details.readPrivacy'),
      submit: t('bookingSite.details.submit'),
      sending: t('bookingSite.details.sending'),
      nameRequired: t('bookingSite.details.nameRequired'),
      emailInvalid: t('bookingSite.details.emailInvalid'),
      phoneInvalid: t('bookingSite.details.phoneInvalid'),
      termsRequired: t('bookingSite.details.termsRequired'),
      changeRoom: t('bookingSite.details.changeRoom'),
    },
    code: {
      heading: t('bookingSite.code.heading'),
      sent: slots('bookingSite.code.sent', 'email'),
      sentUnknown: t('bookingSite.code.sentUnknown'),
      expires: t('bookingSite.code.expires'),
      label: t('bookingSite.code.label'),
      invalidFormat: t('bookingSite.code.invalidFormat'),
      submit: t('bookingSite.code.submit'),
      confirming: t('bookingSite.code.confirming'),
      resend: t('bookingSite.code.resend'),
      resending: t('bookingSite.code.resending'),
      resent: slots('bookingSite.code.resent', 'email'),
      invalid: t('bookingSite.code.invalid'),
      gone: t('bookingSite.code.gone'),
      startAgain: t('bookingSite.code.startAgain'),
      roomTaken: t('bookingSite.code.roomTaken'),
      pickAnother: t('bookingSite.code.pickAnother'),
      tooManyHolds: t('bookingSite.code.tooManyHolds'),
      held: slots('bookingSite.code.held', 'time'),
      toPayment: t('bookingSite.code.toPayment'),
    },
    errors: errorWords(t),
  };
}

/** The words of failed requests, shared by the booking flow and the confirmation page. */
export function errorWords(t: Translate) {
  return {
    rateLimited: leaveSlots((values) => t('bookingSite.errors.rateLimited', values), 'seconds'),
    network: t('bookingSite.errors.network'),
    generic: t('bookingSite.errors.generic'),
    notFound: t('bookingSite.errors.notFound'),
    retry: t('bookingSite.errors.retry'),
  };
}

/** The confirmation page's words (app/b/[slug]/done). */
export function doneWords(t: Translate) {
  return {
    confirmed: t('bookingSite.done.confirmed'),
    keyMailed: t('bookingSite.done.keyMailed'),
    payAtProperty: t('bookingSite.done.payAtProperty'),
    paid: t('bookingSite.done.paid'),
    waiting: t('bookingSite.done.waiting'),
    held: leaveSlots((values) => t('bookingSite.done.held', values), 'time'),
    backToPayment: t('bookingSite.done.backToPayment'),
    awaitingCode: t('bookingSite.done.awaitingCode'),
    enterCode: t('bookingSite.done.enterCode'),
    cancelled: t('bookingSite.done.cancelled'),
    refunded: t('bookingSite.done.refunded'),
    gone: t('bookingSite.done.gone'),
    notFound: t('bookingSite.done.notFound'),
    bookAgain: t('bookingSite.done.bookAgain'),
    loading: t('bookingSite.done.loading'),
    room: t('bookingSite.details.room'),
    when: t('bookingSite.details.when'),
    price: t('bookingSite.details.price'),
    errors: errorWords(t),
  };
}

export type BookingWords = ReturnType<typeof bookingWords>;
export type DoneWords = ReturnType<typeof doneWords>;
export type ErrorWordsOf = ReturnType<typeof errorWords>;
