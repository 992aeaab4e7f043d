import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { DoorInfo } from '@/app/k/[token]/_components/door-info';
import { ExtendStay } from '@/app/k/[token]/_components/extend-stay';
import { GuestHelp } from '@/app/k/[token]/_components/guest-help';
import { GuestKey } from '@/app/k/[token]/_components/guest-key';
import { GuestRegister } from '@/app/k/[token]/_components/guest-register';
import { guestRegisterWords } from '@/app/k/[token]/_components/guest-register-words';
import { countryOptions } from '@/lib/registration/countries';
import { guestKeyWords } from '@/app/k/[token]/_components/guest-key-words';
import { StayEnded } from '@/app/k/[token]/_components/stay-ended';
import { StayTodo } from '@/app/k/[token]/_components/stay-todo';
import { LanguageSwitcher } from '@/components/language-switcher';
import { setLocale } from '@/app/_server/actions';
import { When } from '@/components/time';
import { getGuestPage } from '@/lib/guests/get-guest-page';
import { clientAddress } from '@/lib/http/client-address';
import { getLocale, getT } from '@/i18n/server';
import { intlLocale, type Locale } from '@/lib/i18n/locale';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT();
  // The URL itself is the credential: keep it out of search engines and link previews.
  return { title: t('guest.title'), robots: { index: false, follow: false, nocache: true } };
}

type Props = { params: Promise<{ token: string }> };

/** The page's frame: the property's name on top, the language switch small and below everything that matters. */
function GuestPage({ facilityName, locale, children }: { facilityName: string; locale: Locale; children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="guest-page">
      <header className="guest-bar">
        <p className="guest-bar__facility">{facilityName}</p>
      </header>
      {children}
      <footer className="guest-footer">
        <LanguageSwitcher current={locale} action={setLocale} />
      </footer>
    </main>
  );
}

/**
 * The guest's key page, the stay's home (phone first): room, stay window in the facility's time zone,
 * the live key (kept true while the page is open; at a self check-in facility the check-in first, and
 * check-out once checked in), what is still to do, then how to get in and whom to call. After the
 * stay, a thank-you; for a cancelled booking, that fact — both with the property's contact.
 */
export default async function GuestKeyPage({ params }: Props) {
  const [{ token }, t, locale] = await Promise.all([params, getT(), getLocale()]);
  const page = await getGuestPage(token, clientAddress(await headers()));
  if (!page) notFound();
  if (page.kind !== 'live') {
    return (
      <GuestPage facilityName={page.facilityName} locale={locale}>
        <StayEnded
          kind={page.kind}
          t={t}
          facilityName={page.facilityName}
          phone={page.phone}
          email={page.email}
          address={page.address}
        />
      </GuestPage>
    );
  }
  const { stay, initial, readAt } = page;
  const { timeZone } = stay;

  return (
    // Everything but the live key is rendered here; the key gets its words from the page, so a phone
    // loads no i18n runtime (decision 013).
    <GuestPage facilityName={stay.facilityName} locale={locale}>
      <section className="guest-card" aria-labelledby="guest-room">
        <h1 id="guest-room" className="guest-room">
          <span className="guest-room__label">{t('guest.room')}</span> {stay.roomLabel}
        </h1>
        <dl className="guest-facts guest-facts--stay">
          <div>
            <dt>{t('guest.checkIn')}</dt>
            <dd>
              <When at={stay.startsAt} zone={timeZone} />
            </dd>
          </div>
          <div>
            <dt>{t('guest.checkOut')}</dt>
            <dd>
              <When at={stay.endsAt} zone={timeZone} />
            </dd>
          </div>
        </dl>
        <p className="guest-tz">{t('guest.timeZone', { zone: timeZone })}</p>

        <GuestKey
          token={token}
          initial={initial}
          renderedAt={readAt}
          timeZone={timeZone}
          locale={intlLocale(locale)}
          words={guestKeyWords(t)}
        />
      </section>

      <StayTodo stay={stay} locale={locale} t={t} readAt={readAt} />
      {/* The guest register (a `jp` facility): the form until every guest is recorded, then that it is. */}
      <div id="guest-register">
        {page.registration === 'missing' && (
          <GuestRegister token={token} words={guestRegisterWords(t)} countries={countryOptions(intlLocale(locale))} />
        )}
        {page.registration === 'complete' && (
          <p className="guest-status guest-status--success" data-testid="guest-register-complete">
            {t('guestRegister.complete')}
          </p>
        )}
      </div>
      <ExtendStay token={token} stay={stay} locale={locale} t={t} />

      <DoorInfo stay={stay} locale={locale} t={t} />
      <GuestHelp
        t={t}
        token={token}
        phone={stay.facility.phone}
        email={stay.facility.email}
        address={stay.facility.address}
      />
      <p className="guest-calendar">
        <a className="guest-link" href={`/k/${token}/stay.ics`} download="stay.ics" data-testid="guest-ics">
          {t('guestStay.addToCalendar')}
        </a>
      </p>
      <p className="guest-private">{t('guest.private')}</p>
    </GuestPage>
  );
}
