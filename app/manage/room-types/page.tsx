import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, ListSection, PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { RoomTypeForm } from '@/app/manage/_components/room-type-form';
import { ClientMessages } from '@/components/client-messages';
import { Badge } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { formatMoney } from '@/lib/i18n/money';
import { listRoomTypeFacilities, listRoomTypes } from '@/lib/room-types/list-room-types';
import { getLocale, getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('roomTypes.title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The tenant's room types with their prices and rooms; add one to a facility, open one to edit or archive it. */
export default async function RoomTypesPage({ searchParams }: Props) {
  const staff = await requireStaff('property.manage', '/manage/room-types');
  const { tenantId } = staff.current;
  const [t, locale, query, facilities, types] = await Promise.all([
    getT(),
    getLocale(),
    searchParams,
    listRoomTypeFacilities({ tenantId }),
    listRoomTypes({ tenantId, archived: true }),
  ]);
  const facilityId = typeof query.facility === 'string' ? query.facility : undefined;

  return (
    <>
      <ManageNav staff={staff} current="room-types" />
      <PageHeader title={t('roomTypes.title')} lead={t('roomTypes.lead', { tenant: staff.current.tenantName })} />

      {facilities.length === 0 ? (
        <EmptyState
          testId="room-types-no-facility"
          next={
            <Link href="/manage/facilities/new" className={buttonClassName({ variant: 'primary' })}>
              {t('facilities.addFirst')}
            </Link>
          }
        >
          {t('roomTypes.noFacility')}
        </EmptyState>
      ) : (
        <section aria-labelledby="room-type-add-title" className="section card">
          <h2 id="room-type-add-title">{t('roomTypes.add')}</h2>
          <ClientMessages only={['roomTypes']}>
            <RoomTypeForm facilities={facilities} facilityId={facilityId} />
          </ClientMessages>
        </section>
      )}

      <ListSection
        headingId="room-types-list-title"
        title={t('roomTypes.list')}
        empty={types.length === 0 ? t('roomTypes.empty') : null}
        emptyTestId="room-types-empty"
        tableTestId="room-types-table"
      >
        <thead>
          <tr>
            <th scope="col">{t('roomTypes.col.name')}</th>
            <th scope="col">{t('roomTypes.col.facility')}</th>
            <th scope="col">{t('roomTypes.col.capacity')}</th>
            <th scope="col">{t('roomTypes.col.prices')}</th>
            <th scope="col">{t('roomTypes.col.rooms')}</th>
            <th scope="col">{t('roomTypes.col.status')}</th>
          </tr>
        </thead>
        <tbody>
          {types.map((type) => {
            const money = (cents: number) => formatMoney(locale, cents, type.currency);
            const weekend = type.weekendCents ?? type.weekdayCents;
            const holiday = type.holidayCents ?? weekend;
            return (
              <tr key={type.id} data-testid="room-type-row" data-room-type-id={type.id}>
                <th scope="row">
                  <Link
                    href={`/manage/room-types/${type.id}`}
                    aria-label={t('roomTypes.editLabel', { name: type.name })}
                  >
                    {type.name}
                  </Link>
                </th>
                <td>{type.facilityName}</td>
                <td>{type.capacity}</td>
                <td data-testid="room-type-prices">
                  {[type.weekdayCents, weekend, holiday].map(money).join(' · ')}
                  <span className="facts__sub">{t(`roomTypes.per.${type.unit}`)}</span>
                </td>
                <td>{t('roomTypes.roomCount', { count: type.roomIds.length })}</td>
                <td>
                  {type.archivedAt ? (
                    <Badge tone="neutral">{t('roomTypes.archivedBadge')}</Badge>
                  ) : (
                    <Badge tone="success">{t('roomTypes.activeBadge')}</Badge>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </ListSection>
    </>
  );
}
