import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { buttonClassName } from '@/components/ui/button';
import { Table } from '@/components/ui/table';
import { listFacilitySettings } from '@/lib/facilities/save-facility';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('facilities.title') };
}

/** The tenant's facilities: zone, how they rent (nights or hours) and their times, rooms; add or edit one. */
export default async function FacilitiesPage() {
  const staff = await requireStaff('property.manage', '/manage/facilities');
  const { tenantId } = staff.current;
  const [t, facilities] = await Promise.all([getT(), listFacilitySettings({ tenantId })]);

  return (
    <>
      <ManageNav staff={staff} current="facilities" />
      <PageHeader
        title={t('facilities.title')}
        lead={t('facilities.lead', { tenant: staff.current.tenantName })}
        action={
          facilities.length > 0 && (
            <Link
              href="/manage/facilities/new"
              className={buttonClassName({ variant: 'primary' })}
              data-testid="facility-new"
            >
              {t('facilities.add')}
            </Link>
          )
        }
      />
      {facilities.length === 0 ? (
        <EmptyState
          testId="facilities-empty"
          next={
            <Link
              href="/manage/facilities/new"
              className={buttonClassName({ variant: 'primary' })}
              data-testid="facility-new"
            >
              {t('facilities.addFirst')}
            </Link>
          }
        >
          {t('facilities.empty')}
        </EmptyState>
      ) : (
        <Table region={{ label: t('facilities.title') }} data-testid="facilities-table">
          <thead>
            <tr>
              <th scope="col">{t('facilities.col.name')}</th>
              <th scope="col">{t('facilities.col.timeZone')}</th>
              <th scope="col">{t('facilities.col.times')}</th>
              <th scope="col">{t('facilities.col.rooms')}</th>
              <th scope="col">{t('facilities.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {facilities.map((f) => (
              <tr key={f.id} data-testid="facility-row">
                <th scope="row">{f.name}</th>
                <td>{f.timeZone}</td>
                <td>
                  {f.bookingUnit === 'hour'
                    ? t('facilities.hours', { opens: f.opensAt ?? '', closes: f.closesAt ?? '' })
                    : t('facilities.nights', { checkIn: f.checkInTime, checkOut: f.checkOutTime })}
                </td>
                <td>
                  <Link href={`/manage/rooms?facility=${f.id}`}>{t('facilities.roomCount', { count: f.rooms })}</Link>
                </td>
                <td>
                  <Link href={`/manage/facilities/${f.id}`} aria-label={t('facilities.editLabel', { name: f.name })}>
                    {t('facilities.edit')}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
