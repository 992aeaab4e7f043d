import type { GuestStay } from '@/lib/guests/get-guest-key';
import { formatDateTime } from '@/lib/i18n/formats';
import { intlLocale, type Locale, type Translate } from '@/lib/i18n/locale';
import { formatMoney } from '@/lib/i18n/money';
import { leaveSlots } from '@/lib/i18n/slots';
import { extensionOffer } from '@/lib/stays/extend-stay';
import { ExtendStayForm, type ExtendStayWords } from './extend-stay-form';

/** Every word of the extension form, translated here (decision 013: no i18n runtime on the phone). */
function extendStayWords(t: Translate): ExtendStayWords {
  return {
    title: t('guestExtend.title'),
    intro: t('guestExtend.intro'),
    newEnd: t('guestExtend.newEnd'),
    price: t('guestExtend.price'),
    payOnline: t('guestExtend.payOnline'),
    payAtProperty: t('guestExtend.payAtProperty'),
    payNone: t('guestExtend.payNone'),
    confirm: t('guestExtend.confirm'),
    confirmPay: t('guestExtend.confirmPay'),
    working: t('guestExtend.working'),
    redirecting: t('guestExtend.redirecting'),
    extended: leaveSlots((values) => t('guestExtend.extended', values), 'time'),
    unavailable: leaveSlots((values) => t('guestExtend.unavailable', values), 'time'),
    unavailableNone: t('guestExtend.unavailableNone'),
    pendingWait: leaveSlots((values) => t('guestExtend.pendingWait', values), 'time'),
    awaiting: leaveSlots((values) => t('guestExtend.awaiting', values), 'time'),
    payNow: t('guestExtend.payNow'),
    confirming: t('guestExtend.confirming'),
    error: t('guestExtend.error'),
  };
}

/**
 * "Stay longer" on the key page (issue 31, item 4; decision 029): the later ends the room allows with the price of
 * the added time, computed on the server (lib/stays/extension-quote.ts); nothing when the stay cannot be extended
 * (ended, or the room taken right after it).
 */
export async function ExtendStay({
  token,
  stay,
  locale,
  t,
}: {
  token: string;
  stay: GuestStay;
  locale: Locale;
  t: Translate;
}) {
  const offer = await extensionOffer(stay);
  if (!offer || (offer.options.length === 0 && !offer.pending)) return null;
  const zone = { locale: intlLocale(locale), timeZone: stay.timeZone };
  const when = (at: string) => formatDateTime(at, offer.unit === 'night' ? 'stamp' : 'time', zone);
  const money = (cents: number) => formatMoney(locale, cents, offer.currency);
  return (
    <ExtendStayForm
      token={token}
      words={extendStayWords(t)}
      paymentMode={offer.paymentMode}
      options={offer.options.map((o) => ({ endsAt: o.endsAt, label: when(o.endsAt), price: money(o.amountCents) }))}
      pending={
        offer.pending && {
          label: when(offer.pending.endsAt),
          price: money(offer.pending.amountCents),
          paymentUrl: offer.pending.paymentUrl,
        }
      }
      endLabel={when(stay.endsAt.toISOString())}
      // The 409's latest end arrives as an instant: the component shows it with these.
      format={{ locale: zone.locale, timeZone: stay.timeZone, unit: offer.unit }}
    />
  );
}
