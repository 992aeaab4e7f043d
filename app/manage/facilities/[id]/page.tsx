import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { FacilityForm } from '@/app/manage/_components/facility-form';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { ClientMessages } from '@/components/client-messages';
import {
  BookingSitePublishForm,
  BookingSiteTextsForm,
  FacilityOptionsForm,
} from '@/app/manage/_components/facility-booking-site';
import { Badge } from '@/components/ui/badge';
import { When } from '@/components/time';
import { basisPointsToPercent } from '@/lib/facilities/facility-options';
import { getFacilitySettings } from '@/lib/facilities/save-facility';
import { getFacilityBookingSite } from '@/lib/facilities/update-facility-options';
import { timeZoneChoices } from '@/lib/facilities/time-zones';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('facilities.edit') };
}

/** One facility's settings; another tenant's id, or no such facility, is the 404 page. */
export default async function FacilityPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaff('property.manage', '/manage/facilities');
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  const [t, facility, site] = await Promise.all([
    getT(),
    getFacilitySettings({ tenantId: staff.current.tenantId, facilityId: id }),
    getFacilityBookingSite({ tenantId: staff.current.tenantId, facilityId: id }),
  ]);
  if (!facility || !site) notFound();
  return (
    <>
      <ManageNav staff={staff} current="facilities" />
      <p className="back-link">
        <Link href="/manage/facilities">{t('facilities.back')}</Link>
      </p>
      <PageHeader
        title={facility.name}
        lead={<Link href={`/manage/rooms?facility=${facility.id}`}>{t('facilities.roomsLink')}</Link>}
      />
      <ClientMessages only={['facilities']}>
        <FacilityForm facility={facility} zones={timeZoneChoices()} />
        <section aria-labelledby="facility-options-title" className="section card">
          <h2 id="facility-options-title">{t('facilities.options.title')}</h2>
          <p className="muted">{t('facilities.options.lead')}</p>
          <FacilityOptionsForm facility={{ ...site, taxRate: basisPointsToPercent(site.taxRateBp) }} />
        </section>
        <section aria-labelledby="facility-site-title" className="section card" data-testid="facility-site">
          <h2 id="facility-site-title">
            {t('facilities.site.title')}{' '}
            {site.url ? (
              <Badge tone="success">{t('facilities.site.publishedBadge')}</Badge>
            ) : (
              <Badge tone="neutral">{t('facilities.site.draftBadge')}</Badge>
            )}
          </h2>
          <p className="muted">{t('facilities.site.lead')}</p>
          {site.url && site.publishedAt ? (
            <p>
              <a href={site.url} target="_blank" rel="noreferrer" data-testid="facility-site-link">
                {site.url}
              </a>{' '}
              <span className="muted">
                · {t('facilities.site.published')} <When at={site.publishedAt} zone={facility.timeZone} />
              </span>
            </p>
          ) : (
            <p className="muted" data-testid="facility-site-unpublished">
              {t('facilities.site.notPublished')}
            </p>
          )}
          <BookingSitePublishForm facilityId={site.id} slug={site.slug} published={site.url !== null} />
          <BookingSiteTextsForm facility={site} />
        </section>
      </ClientMessages>
    </>
  );
}
