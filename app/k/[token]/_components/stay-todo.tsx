import type { GuestStay } from '@/lib/guests/get-guest-key';
import { formatDateTime } from '@/lib/i18n/formats';
import { intlLocale, type Locale, type Translate } from '@/lib/i18n/locale';

/**
 * What the guest still has to do before the stay (issue 31), from what the server read: register every
 * guest where the law asks it, pay when the stay is unpaid, check in on this page at a self check-in
 * facility (from when, in the facility's time zone). Nothing once all is done.
 */
export function StayTodo({
  stay,
  locale,
  t,
  readAt,
}: {
  stay: GuestStay;
  locale: Locale;
  t: Translate;
  /** When the stay was read (ms since the epoch). */
  readAt: number;
}) {
  const s = stay.selfService;
  const register = s.registration !== 'none' && !s.registrationComplete;
  const pay = s.paymentMode !== 'none' && !s.paid;
  const checkIn = s.checkInMode === 'self' && !s.checkedIn;
  if (!register && !pay && !checkIn) return null;
  const opensLater = s.selfCheckInOpensAt.getTime() > readAt;
  return (
    <section className="guest-info" aria-labelledby="guest-todo" data-testid="guest-todo">
      <h2 id="guest-todo" className="guest-info__heading">
        {t('guestHome.todoHeading')}
      </h2>
      <ul className="guest-todo">
        {register && (
          <li data-todo="register">
            <a className="guest-link" href="#guest-register">
              {t('guestHome.todoRegister')}
            </a>
          </li>
        )}
        {pay && (
          <li data-todo="pay">
            {s.paymentMode === 'at_property' ? t('guestHome.todoPayAtProperty') : t('guestHome.todoPayOnline')}
          </li>
        )}
        {checkIn && (
          <li data-todo="check-in">
            {opensLater
              ? t('guestHome.todoCheckIn', {
                  time: formatDateTime(s.selfCheckInOpensAt, 'stamp', {
                    locale: intlLocale(locale),
                    timeZone: stay.timeZone,
                  }),
                })
              : t('guestHome.todoCheckInNow')}
          </li>
        )}
      </ul>
    </section>
  );
}

/** Where the guest register goes (the register's own section fills it): shown while it is still to do. */
export function StayRegister({ stay, t }: { stay: GuestStay; t: Translate }) {
  const s = stay.selfService;
  if (s.registration === 'none' || s.registrationComplete) return null;
  return (
    <section
      id="guest-register"
      className="guest-info"
      aria-labelledby="guest-register-heading"
      data-testid="guest-register"
    >
      <h2 id="guest-register-heading" className="guest-info__heading">
        {t('guestHome.registerHeading')}
      </h2>
      <p className="guest-text">{t('guestHome.registerBody')}</p>
    </section>
  );
}
