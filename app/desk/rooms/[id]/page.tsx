import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { Arrived } from '@/app/desk/_components/arrived';
import { DoorEntriesTable } from '@/app/desk/_components/door-entries';
import { ReservationStatusBadge } from '@/app/desk/_components/reservation-status-badge';
import { RoomDoors } from '@/app/desk/_components/room-doors';
import styles from '@/app/desk/_components/room-doors.module.css';
import { ClientMessages } from '@/components/client-messages';
import { Span, TimesIn } from '@/components/time';
import { Badge } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { can } from '@/lib/auth/permissions';
import { roomDoorEntries } from '@/lib/desk/door-record';
import { deskRoom } from '@/lib/desk/room-doors';
import { isCursor } from '@/lib/paging/cursor';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** Entries of the door record per page. */
const ENTRIES_PAGE = 25;

const ZRoomIdSchema = z.uuid();

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('deskRoom.metaTitle') };
}

/**
 * One room at the desk: who is staying now or within a day (with their arrival), its doors with "Open door", and
 * the door record of its locks, newest first, a page at a time.
 */
export default async function DeskRoomPage({ params, searchParams }: Props) {
  const { id } = await params;
  const staff = await requireStaff('desk.view', `/desk/rooms/${encodeURIComponent(id)}`);
  if (!ZRoomIdSchema.safeParse(id).success) notFound();
  const { tenantId, role } = staff.current;
  const userId = staff.user.id;
  // Older entries: the cursor of the page before (a malformed one shows the newest page).
  const { before } = await searchParams;
  const cursor = isCursor(before) ? before : undefined;
  const [t, view, entries] = await Promise.all([
    getT(),
    deskRoom({ tenantId, userId, roomId: id }),
    roomDoorEntries({ tenantId, userId, roomId: id, limit: ENTRIES_PAGE, cursor }),
  ]);
  if (!view) notFound();
  const { room, doors, stays } = view;
  const zone = room.timeZone;

  return (
    <ClientMessages only={['doors', 'key']}>
      <p className="back-link">
        <Link href="/desk/grid">← {t('deskRoom.back')}</Link>
      </p>
      <header className="page__header">
        <h1>
          {t('deskRoom.title', { room: room.label })}{' '}
          {room.archived && <Badge tone="neutral">{t('deskRoom.archived')}</Badge>}
        </h1>
        <p className="page__lead">{t('deskRoom.lead', { facility: room.facilityName })}</p>
        <TimesIn zone={zone} />
        {can(role, 'staff_codes.manage') && (
          <p className="muted small">
            <Link href={`/desk/rooms/${room.id}/staff-codes`}>{t('stay.staffCodesLink', { room: room.label })}</Link>
          </p>
        )}
      </header>

      <div className="detail-grid">
        <section className="card" aria-labelledby="room-stays-title" data-testid="room-stays">
          <h2 id="room-stays-title">{t('deskRoom.stays.title')}</h2>
          {stays.length === 0 ? (
            <p className="empty-state">{t('deskRoom.stays.empty')}</p>
          ) : (
            <ul className={styles.stays}>
              {stays.map((stay) => (
                <li key={stay.id} data-testid="room-stay">
                  <Link href={`/desk/reservations/${stay.id}`}>
                    {stay.guestName ?? <span className="tombstone">{t('guest.deletedAccount')}</span>}
                  </Link>{' '}
                  <ReservationStatusBadge status={stay.status} />{' '}
                  {stay.arrivedAt && <Arrived at={stay.arrivedAt} zone={zone} />}
                  <br />
                  <span className="muted small">
                    <Span from={stay.startsAt} to={stay.endsAt} zone={zone} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="card" aria-labelledby="room-doors-title">
          <h2 id="room-doors-title">{t('doors.title')}</h2>
          <RoomDoors doors={doors} room={room.label} timeZone={zone} canOpen={can(role, 'doors.unlock')} t={t} />
        </section>
      </div>

      <section className="section" aria-labelledby="room-entries-title">
        <h2 id="room-entries-title">{t('doors.entries.title')}</h2>
        <p className="muted">{t('doors.entries.lead')}</p>
        <DoorEntriesTable entries={entries.data} timeZone={zone} headingId="room-entries-title" t={t} />
        {(cursor || entries.nextCursor) && (
          <p className="pager">
            {cursor && (
              <Link href={`/desk/rooms/${room.id}`} className={buttonClassName({ variant: 'ghost' })}>
                {t('doors.entries.newest')}
              </Link>
            )}{' '}
            {entries.nextCursor && (
              <Link
                href={`/desk/rooms/${room.id}?before=${encodeURIComponent(entries.nextCursor)}`}
                className={buttonClassName({ variant: 'secondary' })}
                data-testid="entries-older"
              >
                {t('doors.entries.older')}
              </Link>
            )}
          </p>
        )}
      </section>
    </ClientMessages>
  );
}
