import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { GuestKey } from '@/app/k/[token]/_components/guest-key';
import { guestKeyWords } from '@/app/k/[token]/_components/guest-key-words';
import { LanguageSwitcher } from '@/components/language-switcher';
import { When } from '@/components/time';
import { getGuestKey, getGuestStay } from '@/lib/guests/get-guest-key';
import { limitGuestKeyRequest } from '@/lib/guests/guest-rate-limits';
import { clientAddress } from '@/lib/http/client-address';
import { getLocale, getT } from '@/app/_server/i18n';
import { intlLocale } from '@/lib/i18n/locale';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT();
  // The URL itself is the credential: keep it out of search engines and link previews.
  return { title: t('guest.title'), robots: { index: false, follow: false, nocache: true } };
}

type Props = { params: Promise<{ token: string }> };

/** The guest's key page (phone first): room, stay window in the facility's time zone, and the live key. */
export default async function GuestKeyPage({ params }: Props) {
  const [{ token }, t, locale] = await Promise.all([params, getT(), getLocale()]);
  const stay = await getGuestStay(token);
  if (!stay) notFound();
  const { timeZone } = stay;
  // The key is read while rendering (same rules and rate limit as the key endpoint), so the PIN is
  // in the first HTML; when that is not possible the client fetches it.
  const address = clientAddress(await headers());
  const initialKey = await limitGuestKeyRequest(token, address)
    .then(() => getGuestKey(token))
    .catch(() => null);

  return (
    // Everything but the live key is rendered here; the key gets its words from the page, so a phone
    // loads no i18n runtime (decision 013).
    <main id="main" tabIndex={-1} className="guest-page">
      <header className="guest-bar">
        <p className="guest-bar__facility">{stay.facilityName}</p>
        <LanguageSwitcher current={locale} />
      </header>

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
          initialKey={initialKey}
          timeZone={timeZone}
          locale={intlLocale(locale)}
          words={guestKeyWords(t)}
        />
      </section>

      <p className="guest-private">{t('guest.private')}</p>
    </main>
  );
}
