import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { RoomTypeArchiveButton, RoomTypeForm } from '@/app/manage/_components/room-type-form';
import { RoomTypePhotos } from '@/app/manage/_components/room-type-photos';
import { IcalImport } from '@/app/manage/_components/room-ical';
import { ClientMessages } from '@/components/client-messages';
import { Badge } from '@/components/ui/badge';
import { listIcalFeeds } from '@/lib/ical/feeds';
import { fromMinorUnits } from '@/lib/i18n/money';
import { intlLocale } from '@/lib/i18n/locale';
import { listRoomDetails } from '@/lib/rooms/list-room-details';
import { listRoomTypes } from '@/lib/room-types/list-room-types';
import { getLocale, getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('roomTypes.editTitle') };
}

/** One room type: its name, capacity and prices, its rooms, and archive; another tenant's id is the 404 page. */
export default async function RoomTypePage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaff('property.manage', '/manage/room-types');
  const { tenantId } = staff.current;
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  const [t, locale, types, rooms] = await Promise.all([
    getT(),
    getLocale(),
    listRoomTypes({ tenantId, roomTypeId: id, archived: true }),
    listRoomDetails({ tenantId }),
  ]);
  const type = types[0];
  if (!type) notFound();
  const feeds = await listIcalFeeds({ tenantId, roomTypeId: type.id });
  const price = (cents: number | null) => (cents === null ? '' : fromMinorUnits(cents, type.currency));
  const ofType = rooms.filter((room) => type.roomIds.includes(room.id));

  return (
    <>
      <ManageNav staff={staff} current="room-types" />
      <p className="back-link">
        <Link href="/manage/room-types">{t('roomTypes.back')}</Link>
      </p>
      <PageHeader
        title={
          <>
            {type.name} · {type.facilityName}{' '}
            {type.archivedAt && <Badge tone="neutral">{t('roomTypes.archivedBadge')}</Badge>}
          </>
        }
      />
      <ClientMessages only={['roomTypes', 'rooms']}>
        <section aria-labelledby="room-type-settings-title" className="section card">
          <h2 id="room-type-settings-title">{t('roomTypes.settings')}</h2>
          <RoomTypeForm
            facilities={[]}
            roomType={{
              id: type.id,
              facility: {
                id: type.facilityId,
                name: type.facilityName,
                currency: type.currency,
                bookingUnit: type.unit,
              },
              name: type.name,
              description: type.description,
              capacity: type.capacity,
              weekday: price(type.weekdayCents),
              weekend: price(type.weekendCents),
              holiday: price(type.holidayCents),
            }}
          />
        </section>

        <section aria-labelledby="room-type-photos-title" className="section card">
          <h2 id="room-type-photos-title">{t('roomTypes.photos.title')}</h2>
          <RoomTypePhotos roomTypeId={type.id} photos={type.photos} />
        </section>

        <section aria-labelledby="room-type-rooms-title" className="section card">
          <h2 id="room-type-rooms-title">{t('roomTypes.rooms')}</h2>
          {ofType.length === 0 ? (
            <p className="muted">{t('roomTypes.noRooms')}</p>
          ) : (
            <ul data-testid="room-type-rooms">
              {ofType.map((room) => (
                <li key={room.id}>
                  <Link href={`/manage/rooms/${room.id}`}>{room.label}</Link>
                </li>
              ))}
            </ul>
          )}
        </section>

        {!type.archivedAt && (
          <section aria-labelledby="room-type-ical-title" className="section card">
            <h2 id="room-type-ical-title">{t('roomTypes.icalTitle')}</h2>
            <IcalImport
              target={{ roomTypeId: type.id }}
              lead={t('rooms.ical.typeImportLead')}
              locale={intlLocale(locale)}
              timeZone={type.timeZone}
              feeds={feeds.map((feed) => ({
                ...feed,
                lastFetchedAt: feed.lastFetchedAt?.toISOString() ?? null,
                lastSuccessAt: feed.lastSuccessAt?.toISOString() ?? null,
              }))}
            />
          </section>
        )}

        {!type.archivedAt && (
          <section aria-labelledby="room-type-archive-title" className="section card">
            <h2 id="room-type-archive-title">{t('roomTypes.archive.title')}</h2>
            <p className="muted">{t('roomTypes.archive.lead')}</p>
            <RoomTypeArchiveButton roomTypeId={type.id} />
          </section>
        )}
      </ClientMessages>
    </>
  );
}
