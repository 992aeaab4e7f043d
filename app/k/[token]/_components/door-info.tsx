import { guestInfoFor, readGuestInfo } from '@/lib/facilities/guest-info';
import type { GuestStay } from '@/lib/guests/get-guest-key';
import { formatDateTime } from '@/lib/i18n/formats';
import { intlLocale, type Locale, type Translate } from '@/lib/i18n/locale';

/** "HH:MM" (a local time of day) in the guest's locale's short time style. */
function localTime(hhmm: string, locale: Locale): string {
  const [h, m] = hhmm.split(':').map(Number);
  return formatDateTime(new Date(Date.UTC(1970, 0, 1, h!, m!)), 'time', {
    locale: intlLocale(locale),
    timeZone: 'UTC',
  });
}

/** One text the manager wrote, under its label; nothing when it is not written. */
function InfoText({ label, text }: { label: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <div>
      <h3 className="guest-info__label">{label}</h3>
      <p className="guest-text">{text}</p>
    </div>
  );
}

/**
 * What a guest needs at the door, written by the manager for the facility: how to use the keypad,
 * how to find the place, Wi-Fi, when to leave, house rules. Only what is written is shown.
 */
export function DoorInfo({ stay, locale, t }: { stay: GuestStay; locale: Locale; t: Translate }) {
  const info = guestInfoFor(readGuestInfo(stay.facility.guestInfo), locale);
  const leave =
    stay.facility.bookingUnit === 'hour'
      ? t('guestStay.endsAt', {
          time: formatDateTime(stay.endsAt, 'time', { locale: intlLocale(locale), timeZone: stay.timeZone }),
        })
      : t('guestStay.checkOutBy', { time: localTime(stay.facility.checkOutTime, locale) });
  return (
    <section className="guest-info" aria-labelledby="guest-door" data-testid="guest-door-info">
      <h2 id="guest-door" className="guest-info__heading">
        {t('guestStay.doorHeading')}
      </h2>
      <InfoText label={t('guestStay.keypad')} text={info.keypad} />
      <InfoText label={t('guestStay.directions')} text={info.directions} />
      <p className="guest-text guest-info__strong" data-testid="guest-check-out">
        {leave}
      </p>
      {(info.wifiName || info.wifiPassword) && (
        <div>
          <h3 className="guest-info__label">{t('guestStay.wifi')}</h3>
          <dl className="guest-facts">
            {info.wifiName && (
              <div>
                <dt>{t('guestStay.wifiName')}</dt>
                <dd className="guest-copyable">{info.wifiName}</dd>
              </div>
            )}
            {info.wifiPassword && (
              <div>
                <dt>{t('guestStay.wifiPassword')}</dt>
                <dd className="guest-copyable">{info.wifiPassword}</dd>
              </div>
            )}
          </dl>
        </div>
      )}
      <InfoText label={t('guestStay.houseRules')} text={info.houseRules} />
    </section>
  );
}
