import type { Metadata } from 'next';
import Link from 'next/link';
import { FacilityForm } from '@/app/manage/_components/facility-form';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { ClientMessages } from '@/components/client-messages';
import { timeZoneChoices } from '@/lib/facilities/time-zones';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('facilities.new.title') };
}

/** A new facility: every setting on one form; saving it goes on to its rooms. */
export default async function NewFacilityPage() {
  const staff = await requireStaff('property.manage', '/manage/facilities/new');
  const t = await getT();
  return (
    <>
      <ManageNav staff={staff} current="facilities" />
      <p className="back-link">
        <Link href="/manage/facilities">{t('facilities.back')}</Link>
      </p>
      <PageHeader title={t('facilities.new.title')} lead={t('facilities.new.lead')} />
      <ClientMessages only={['facilities']}>
        <FacilityForm zones={timeZoneChoices()} />
      </ClientMessages>
    </>
  );
}
