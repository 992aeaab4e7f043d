import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { FacilityForm } from '@/app/manage/_components/facility-form';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { ClientMessages } from '@/components/client-messages';
import { getFacilitySettings } from '@/lib/facilities/save-facility';
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
  const [t, facility] = await Promise.all([
    getT(),
    getFacilitySettings({ tenantId: staff.current.tenantId, facilityId: id }),
  ]);
  if (!facility) notFound();
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
      </ClientMessages>
    </>
  );
}
