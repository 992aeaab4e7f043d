import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { RoomArchiveButton } from '@/app/manage/_components/room-archive';
import { RoomDoorAddForm } from '@/app/manage/_components/room-door-add';
import { RoomDoors } from '@/app/manage/_components/room-door-change';
import { RoomForm } from '@/app/manage/_components/room-form';
import { RoomIcal } from '@/app/manage/_components/room-ical';
import { roomIcalUrl } from '@/lib/ical/export-feed';
import { listIcalFeeds } from '@/lib/ical/feeds';
import { intlLocale } from '@/lib/i18n/locale';
import { ClientMessages } from '@/components/client-messages';
import { Badge } from '@/components/ui/badge';
import { Notice } from '@/components/ui/notice';
import { Span } from '@/components/time';
import { listLocks } from '@/lib/locks/locks';
import { futureStaysOfRoom } from '@/lib/rooms/archive-room';
import { listRoomDetails } from '@/lib/rooms/list-room-details';
import { listRoomTypes } from '@/lib/room-types/list-room-types';
import { fromMinorUnits } from '@/lib/rooms/room-input';
import { getLocale, getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('rooms.editTitle') };
}

/**
 * One room: its label and rate, its doors (add one of the tenant's locks), and archive or restore —
 * the stays still to come are listed first, since they keep it from being archived.
 */
export default async function RoomPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaff('property.manage', '/manage/rooms');
  const { tenantId } = staff.current;
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  const [t, rooms] = await Promise.all([getT(), listRoomDetails({ tenantId, roomId: id })]);
  const room = rooms[0];
  if (!room) notFound();
  const [locks, stays, types, feeds, exportUrl, locale] = await Promise.all([
    listLocks({ tenantId }),
    futureStaysOfRoom({ tenantId, roomId: id }),
    listRoomTypes({ tenantId, facilityId: room.facilityId, archived: true }),
    listIcalFeeds({ tenantId, roomId: id }),
    roomIcalUrl({ tenantId, roomId: id }),
    getLocale(),
  ]);
  const doorIds = new Set(room.roomLocks.map(({ lock }) => lock.id));
  // A replacement is a lock no room has as a door (a broken or swapped device's successor).
  const spareLocks = locks
    .filter((lock) => lock.roomIds.length === 0)
    .map(({ id: lockId, name }) => ({ id: lockId, name }));
  const archived = room.archivedAt !== null;

  return (
    <>
      <ManageNav staff={staff} current="rooms" />
      <p className="back-link">
        <Link href="/manage/rooms">{t('rooms.back')}</Link>
      </p>
      <PageHeader
        title={
          <>
            {t('rooms.heading', { room: room.label, facility: room.facility.name })}{' '}
            {archived && <Badge tone="neutral">{t('rooms.archivedBadge')}</Badge>}
          </>
        }
      />

      <ClientMessages only={['rooms', 'locks']}>
        <section aria-labelledby="room-settings-title" className="section card">
          <h2 id="room-settings-title">{t('rooms.settings')}</h2>
          <RoomForm
            facilities={[]}
            room={{
              id: room.id,
              label: room.label,
              rate: fromMinorUnits(room.rateCents, room.currency),
              currency: room.currency,
              rateUnit: room.rateUnit,
              rateName: room.rateName,
              pinLength: room.pinLength,
              roomTypeId: room.roomTypeId,
            }}
            roomTypes={types
              .filter((type) => !type.archivedAt || type.id === room.roomTypeId)
              .map(({ id: typeId, name }) => ({ id: typeId, name }))}
          />
        </section>

        <section aria-labelledby="room-doors-title" className="section card">
          <h2 id="room-doors-title">{t('rooms.doors.title')}</h2>
          <RoomDoors
            roomId={room.id}
            doors={room.roomLocks.map(({ lock, role }) => ({
              lockId: lock.id,
              name: lock.name,
              roleLabel: t(`locks.addDoor.roleOption.${role}`),
            }))}
            spareLocks={spareLocks}
          />
          <RoomDoorAddForm
            roomId={room.id}
            locks={locks.filter((lock) => !doorIds.has(lock.id)).map(({ id: lockId, name }) => ({ id: lockId, name }))}
          />
          <p>
            <Link href="/manage/locks">{t('rooms.doors.locksLink')}</Link>
            {' · '}
            <Link href={`/desk/rooms/${room.id}`} data-testid="room-door-record-link">
              {t('doors.roomPage', { room: room.label })}
            </Link>
          </p>
        </section>

        <section aria-labelledby="room-ical-title" className="section card">
          <h2 id="room-ical-title">{t('rooms.ical.title')}</h2>
          <RoomIcal
            roomId={room.id}
            exportUrl={exportUrl.url}
            locale={intlLocale(locale)}
            timeZone={room.facility.timeZone}
            feeds={feeds.map((feed) => ({
              ...feed,
              lastFetchedAt: feed.lastFetchedAt?.toISOString() ?? null,
              lastSuccessAt: feed.lastSuccessAt?.toISOString() ?? null,
            }))}
          />
        </section>

        <section aria-labelledby="room-archive-title" className="section card">
          <h2 id="room-archive-title">{archived ? t('rooms.archive.restoreTitle') : t('rooms.archive.title')}</h2>
          <p className="muted">{archived ? t('rooms.archive.restoreLead') : t('rooms.archive.lead')}</p>
          {!archived && stays.length > 0 && (
            <Notice tone="warning" as="div" announce={false} data-testid="room-future-stays">
              <p>{t('rooms.archive.hasStays')}</p>
              <ul>
                {stays.map((stay) => (
                  <li key={stay.id}>
                    <Link href={`/desk/reservations/${stay.id}`}>
                      {stay.guestDisplay} · <Span from={stay.startsAt} to={stay.endsAt} zone={room.facility.timeZone} />
                    </Link>
                  </li>
                ))}
              </ul>
            </Notice>
          )}
          <RoomArchiveButton roomId={room.id} archived={archived} blocked={stays.length > 0} />
        </section>
      </ClientMessages>
    </>
  );
}
