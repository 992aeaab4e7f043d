import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BookingDone } from '@/app/b/[slug]/_components/booking-done';
import { BookingFrame } from '@/app/b/[slug]/_components/booking-frame';
import { doneWords } from '@/app/b/[slug]/_components/booking-words';
import { QueryProvider } from '@/components/query-provider';
import { getLocale, getT } from '@/i18n/server';
import { getPublicFacility } from '@/lib/booking-site/public-facility';
import { intlLocale } from '@/lib/i18n/locale';

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<{ request?: string | string[] }> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT();
  // The request id in the URL is the guest's own: keep it out of search engines.
  return { title: t('bookingSite.done.title'), robots: { index: false, follow: false } };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where a booking ends: Stripe Checkout's success_url (`/b/{slug}/done?request={id}`), and the next
 * page after the code for a booking paid at the property or not at all. The browser follows the
 * request until it is confirmed or cancelled (BookingDone).
 */
export default async function BookingDonePage({ params, searchParams }: Props) {
  const [{ slug }, { request }, t, locale] = await Promise.all([params, searchParams, getT(), getLocale()]);
  const facility = await getPublicFacility(slug);
  if (!facility || typeof request !== 'string' || !UUID.test(request)) notFound();
  return (
    <BookingFrame facilityName={facility.name} locale={locale}>
      <section className="guest-card" aria-labelledby="done-heading">
        <h1 id="done-heading" className="book-title">
          {t('bookingSite.done.title')}
        </h1>
        <QueryProvider>
          <BookingDone
            slug={slug}
            requestId={request}
            unit={facility.unit}
            timeZone={facility.timeZone}
            tag={intlLocale(locale)}
            words={doneWords(t)}
          />
        </QueryProvider>
      </section>
    </BookingFrame>
  );
}
