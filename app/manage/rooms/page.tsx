import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, ListSection, PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { RoomForm } from '@/app/manage/_components/room-form';
import { ClientMessages } from '@/components/client-messages';
import { Badge } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { listFacilitySettings } from '@/lib/facilities/save-facility';
import { formatMoney } from '@/lib/i18n/money';
import { listRoomDetails } from '@/lib/rooms/list-room-details';
import { listRoomTypes } from '@/lib/room-types/list-room-types';
import { getLocale, getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('rooms.title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The tenant's rooms with their rate, doors and state; add a room to a facility, open one to edit it. */
export default async function RoomsPage({ searchParams }: Props) {
  const staff = await requireStaff('property.manage', '/manage/rooms');
  const { tenantId } = staff.current;
  const [t, locale, query, facilities, rooms, types] = await Promise.all([
    getT(),
    getLocale(),
    searchParams,
    listFacilitySettings({ tenantId }),
    listRoomDetails({ tenantId }),
    listRoomTypes({ tenantId }),
  ]);
  const facilityId = typeof query.facility === 'string' ? query.facility : undefined;

  return (
    <>
      <ManageNav staff={staff} current="rooms" />
      <PageHeader title={t('rooms.title')} lead={t('rooms.lead', { tenant: staff.current.tenantName })} />
      {query.created === 'facility' && (
        <Notice tone="success" data-testid="facility-created">
          {t('rooms.facilityCreated')}
        </Notice>
      )}

      {facilities.length === 0 ? (
        <EmptyState
          testId="rooms-no-facility"
          next={
            <Link href="/manage/facilities/new" className={buttonClassName({ variant: 'primary' })}>
              {t('facilities.addFirst')}
            </Link>
          }
        >
          {t('rooms.noFacility')}
        </EmptyState>
      ) : (
        <section aria-labelledby="room-add-title" className="section card">
          <h2 id="room-add-title">{t('rooms.add')}</h2>
          <ClientMessages only={['rooms']}>
            <RoomForm
              facilities={facilities.map(({ id, name, bookingUnit }) => ({ id, name, bookingUnit }))}
              facilityId={facilityId}
              roomTypes={types
                .filter((type) => !type.archivedAt)
                .map(({ id, name, facilityId: typeFacility, facilityName }) => ({
                  id,
                  name: facilities.length > 1 ? `${name} (${facilityName})` : name,
                  facilityId: typeFacility,
                }))}
            />
          </ClientMessages>
        </section>
      )}

      <ListSection
        headingId="rooms-list-title"
        title={t('rooms.list')}
        empty={rooms.length === 0 ? t('rooms.empty') : null}
        emptyTestId="rooms-empty"
        tableTestId="rooms-table"
      >
        <thead>
          <tr>
            <th scope="col">{t('rooms.col.label')}</th>
            <th scope="col">{t('rooms.col.facility')}</th>
            <th scope="col">{t('rooms.col.roomType')}</th>
            <th scope="col">{t('rooms.col.rate')}</th>
            <th scope="col">{t('rooms.col.doors')}</th>
            <th scope="col">{t('rooms.col.status')}</th>
          </tr>
        </thead>
        <tbody>
          {rooms.map((room) => (
            <tr key={room.id} data-testid="room-row" data-room-id={room.id}>
              <th scope="row">
                <Link href={`/manage/rooms/${room.id}`} aria-label={t('rooms.editLabel', { room: room.label })}>
                  {room.label}
                </Link>
              </th>
              <td>{room.facility.name}</td>
              <td>{room.roomType?.name ?? <span className="muted">{t('rooms.noRoomType')}</span>}</td>
              <td>
                {t(`rooms.per.${room.rateUnit}`, { amount: formatMoney(locale, room.rateCents, room.currency) })}
                <span className="facts__sub">{room.rateName}</span>
              </td>
              <td>
                {room.roomLocks.length > 0 ? (
                  room.roomLocks.map(({ lock }) => lock.name).join(', ')
                ) : (
                  <span className="muted">{t('rooms.doors.none')}</span>
                )}
              </td>
              <td>
                {room.archivedAt ? (
                  <Badge tone="neutral">{t('rooms.archivedBadge')}</Badge>
                ) : (
                  <Badge tone="success">{t('rooms.activeBadge')}</Badge>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ListSection>
    </>
  );
}
