import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { BookingFlow } from '@/app/b/[slug]/_components/booking-flow';
import { BookingFrame } from '@/app/b/[slug]/_components/booking-frame';
import { bookingWords } from '@/app/b/[slug]/_components/booking-words';
import { addMonths, monthOf, monthRange, todayIn, type DayAvailability } from '@/app/b/[slug]/_lib/calendar';
import { formatClock } from '@/app/b/[slug]/_lib/format';
import { QueryProvider } from '@/components/query-provider';
import { getLocale, getT } from '@/i18n/server';
import { getAvailability } from '@/lib/booking-site/availability';
import { getPublicFacility } from '@/lib/booking-site/public-facility';
import { publicReadLimit } from '@/lib/booking-site/rate-limits';
import { clientAddress } from '@/lib/http/client-address';
import { intlLocale } from '@/lib/i18n/locale';

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ slug }, t] = await Promise.all([params, getT()]);
  const facility = await getPublicFacility(slug);
  return { title: facility ? t('bookingSite.title', { facility: facility.name }) : t('bookingSite.errors.notFound') };
}

/**
 * A published facility's booking site (API.md "Public booking"), phone first, in the visitor's
 * language: the facility is read on the server, the steps run in the browser against the public
 * API (BookingFlow), with every word translated here. Unknown or unpublished slug → 404.
 */
export default async function BookingSitePage({ params, searchParams }: Props) {
  const [{ slug }, t, locale, query] = await Promise.all([params, getT(), getLocale(), searchParams]);
  const facility = await getPublicFacility(slug);
  if (!facility) notFound();
  const tag = intlLocale(locale);
  const today = todayIn(facility.timeZone);
  const initial = query.m || query.in || query.day ? null : await firstMonths(slug, monthOf(today));
  return (
    <BookingFrame facilityName={facility.name} locale={locale}>
      <h1 className="book-title">
        {t(facility.unit === 'hour' ? 'bookingSite.bookHeadingHourly' : 'bookingSite.bookHeading')}
      </h1>
      <p className="guest-hint book-intro">
        {facility.unit === 'hour'
          ? facility.opensAt && facility.closesAt
            ? t('bookingSite.openingHours', {
                opensAt: formatClock(tag, facility.opensAt),
                closesAt: formatClock(tag, facility.closesAt),
              })
            : null
          : t('bookingSite.checkInOut', {
              checkIn: formatClock(tag, facility.checkInTime),
              checkOut: formatClock(tag, facility.checkOutTime),
            })}{' '}
        {t('bookingSite.timeZoneNote', { zone: facility.timeZone })}
      </p>
      <QueryProvider>
        <BookingFlow
          slug={slug}
          facility={facility}
          today={today}
          initialDays={initial?.days}
          initialAt={initial?.at}
          locale={locale}
          tag={tag}
          words={bookingWords(t)}
        />
      </QueryProvider>
      <footer className="book-footer" data-testid="booking-site-footer">
        {(facility.contact.phone || facility.contact.email || facility.contact.address) && (
          <section aria-labelledby="book-contact">
            <h2 id="book-contact">{t('bookingSite.footer.contact')}</h2>
            <ul className="book-footer__contact" data-testid="booking-site-contact">
              {facility.contact.phone && (
                <li>
                  <a href={`tel:${facility.contact.phone.replace(/[^\d+]/g, '')}`}>{facility.contact.phone}</a>
                </li>
              )}
              {facility.contact.email && (
                <li>
                  <a href={`mailto:${facility.contact.email}`}>{facility.contact.email}</a>
                </li>
              )}
              {facility.contact.address && <li className="book-footer__address">{facility.contact.address}</li>}
            </ul>
          </section>
        )}
        {facility.termsText && (
          <details className="book-terms__text">
            <summary>{t('bookingSite.footer.terms')}</summary>
            <div className="book-terms__body" data-testid="booking-site-terms">
              {facility.termsText}
            </div>
          </details>
        )}
        {facility.privacyText && (
          <details className="book-terms__text">
            <summary>{t('bookingSite.footer.privacy')}</summary>
            <div className="book-terms__body" data-testid="booking-site-privacy">
              {facility.privacyText}
            </div>
          </details>
        )}
      </footer>
    </BookingFrame>
  );
}

/**
 * A first visit's calendar (this month and the next) read on the server, so the page arrives with its days and
 * the browser need not ask before showing them; null when the read is refused (rate limited): the browser asks.
 */
async function firstMonths(slug: string, month: string): Promise<{ days: DayAvailability[]; at: number } | null> {
  try {
    const days = await getAvailability({
      slug,
      from: monthRange(month).from,
      to: monthRange(addMonths(month, 1)).to,
      limit: publicReadLimit(clientAddress(await headers())),
    });
    return { days, at: Date.now() };
  } catch {
    return null;
  }
}
