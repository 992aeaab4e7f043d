import type { Metadata } from 'next';
import Link from 'next/link';
import { getFormatter } from 'next-intl/server';
import { z } from 'zod';
import { DeskNav } from '@/app/desk/_components/desk-nav';
import { LiveRefresh } from '@/app/desk/_components/live-refresh';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { can } from '@/lib/auth/permissions';
import { TimesIn } from '@/components/time';
import { Button, buttonClassName } from '@/components/ui/button';
import { FacilityField } from '@/components/facility-field';
import { Field, Input, Select } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { Table } from '@/components/ui/table';
import { listBookingFacilities } from '@/lib/bookings/booking-facilities';
import { deskSyncState } from '@/lib/desk/desk-sync-state';
import { gridCells, roomGrid, type GridBar, type GridRoom } from '@/lib/desk/room-grid';
import { addDays, calendarDay, zonedToday } from '@/lib/bookings/stay-window';
import type { Translate } from '@/lib/i18n/locale';
import styles from './grid.module.css';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('grid.title') };
}

const DAY_CHOICES = [7, 14, 21, 28] as const;
const ZDaysSchema = z.coerce
  .number()
  .int()
  .refine((n) => (DAY_CHOICES as readonly number[]).includes(n))
  .catch(14);

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * Rooms down, days across (14 from a chosen date by default): each stay a bar over its nights,
 * coloured and labelled by status, linking to its reservation; each free day a link to book that
 * room from then. Scrolls sideways with the room column kept in view.
 */
export default async function GridPage({ searchParams }: Props) {
  const staff = await requireStaff('desk.view', '/desk/grid');
  const { tenantId } = staff.current;
  const userId = staff.user.id;
  const [t, format, query, facilities] = await Promise.all([
    getT(),
    getFormatter(),
    searchParams,
    listBookingFacilities({ tenantId }),
  ]);
  const facility = facilities.find((f) => f.id === first(query.facility));
  const zone = facility?.timeZone ?? facilities[0]?.timeZone ?? 'UTC';
  const today = zonedToday(new Date(), zone);
  const asked = first(query.from);
  const invalidFrom = asked !== '' && calendarDay(asked) === null;
  const from = asked !== '' && !invalidFrom ? asked : today;
  const days = ZDaysSchema.parse(first(query.days) || 14);
  const grid = await roomGrid({ tenantId, userId, from, days, facilityId: facility?.id });
  const ids = [...new Set(grid.rooms.flatMap((r) => r.bars.map((b) => b.reservationId)))];
  const sync = await deskSyncState({ tenantId, userId, reservationIds: ids, window: grid.window });
  const link = (start: string) =>
    `/desk/grid?${new URLSearchParams({ from: start, days: String(days), ...(facility ? { facility: facility.id } : {}) })}`;
  const dayLabel = (d: string) =>
    format.dateTime(new Date(`${d}T00:00:00Z`), {
      timeZone: 'UTC',
      weekday: 'short',
      month: 'numeric',
      day: 'numeric',
    });
  const dayName = (d: string) =>
    format.dateTime(new Date(`${d}T00:00:00Z`), { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' });

  return (
    <>
      <header className="page__header">
        <h1 id="grid-title">{t('grid.title')}</h1>
        <p className="page__lead">{t('grid.lead')}</p>
        <TimesIn zone={zone} />
      </header>
      <DeskNav current="grid" />
      <LiveRefresh
        reservationIds={ids}
        watch={{ from: grid.window.from.toISOString(), to: grid.window.to.toISOString() }}
        initial={sync}
      />

      <form method="get" action="/desk/grid" className={styles.controls}>
        <Field id="grid-from" label={t('grid.from')}>
          {(control) => <Input {...control} name="from" type="date" defaultValue={from} />}
        </Field>
        <Field id="grid-days" label={t('grid.days')}>
          {(control) => (
            <Select {...control} name="days" defaultValue={String(days)}>
              {DAY_CHOICES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {facilities.length > 1 && (
          <FacilityField
            id="grid-facility"
            label={t('grid.facility')}
            facilities={facilities}
            defaultValue={facility?.id ?? ''}
            all={t('grid.allFacilities')}
          />
        )}
        <Button type="submit" variant="secondary">
          {t('grid.show')}
        </Button>
      </form>
      <ul className={styles.pager}>
        <li>
          <Link className={buttonClassName({ variant: 'ghost', size: 'compact' })} href={link(addDays(from, -days))}>
            ← {t('grid.previous', { days })}
          </Link>
        </li>
        <li>
          <Link className={buttonClassName({ variant: 'ghost', size: 'compact' })} href={link(today)}>
            {t('grid.today')}
          </Link>
        </li>
        <li>
          <Link className={buttonClassName({ variant: 'ghost', size: 'compact' })} href={link(addDays(from, days))}>
            {t('grid.next', { days })} →
          </Link>
        </li>
      </ul>
      {invalidFrom && (
        <Notice tone="warning" announce={false}>
          {t('grid.invalidFrom')}
        </Notice>
      )}
      <p className="muted small">{t('grid.legend')}</p>

      {grid.rooms.length === 0 ? (
        <p className="empty-state">{t('grid.noRooms')}</p>
      ) : (
        <Table region={{ labelledBy: 'grid-title' }} className={styles.grid} data-testid="room-grid">
          <thead>
            <tr>
              <th scope="col" className={styles.roomHead}>
                {t('grid.room')}
              </th>
              {grid.days.map((d) => (
                <th key={d} scope="col" className={d === today ? styles.today : undefined} data-day={d}>
                  <abbr title={dayName(d)} className={styles.dayHead}>
                    {dayLabel(d)}
                  </abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.rooms.map((room, i) => (
              <RoomRow
                key={room.id}
                room={room}
                days={grid.days}
                newFacility={i === 0 || grid.rooms[i - 1]!.facilityId !== room.facilityId}
                dayName={dayName}
                staffCodes={can(staff.current.role, 'staff_codes.manage')}
                t={t}
              />
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

type RowProps = {
  room: GridRoom;
  days: string[];
  newFacility: boolean;
  dayName: (d: string) => string;
  /** The room's staff codes (housekeeping, maintenance) are one link away for whoever may make them. */
  staffCodes: boolean;
  t: Translate;
};

function RoomRow({ room, days, newFacility, dayName, staffCodes, t }: RowProps) {
  const hourly = room.bookingUnit === 'hour';
  const bookHref = (d: string) =>
    `/desk/bookings/new?${new URLSearchParams(
      hourly
        ? { facility: room.facilityId, date: d, room: room.id }
        : { facility: room.facilityId, checkIn: d, checkOut: addDays(d, 1), room: room.id },
    )}`;
  return (
    <>
      {newFacility && (
        <tr className={styles.facilityRow}>
          <th scope="colgroup" colSpan={days.length + 1}>
            {room.facilityName}
            {hourly && <span className="muted"> · {t('grid.hourly')}</span>}
          </th>
        </tr>
      )}
      <tr data-room-id={room.id}>
        <th scope="row" className={styles.roomCell}>
          <Link href={`/desk/rooms/${room.id}`} aria-label={t('deskRoom.open', { room: room.label })}>
            {room.label}
          </Link>
          {staffCodes && (
            <Link
              href={`/desk/rooms/${room.id}/staff-codes`}
              className={styles.staffCodes}
              aria-label={t('staffCodes.title', { room: room.label })}
            >
              {t('grid.staffCodes')}
            </Link>
          )}
        </th>
        {gridCells(room.bars, days.length).map((c) => (
          <td key={c.day} colSpan={c.span > 1 ? c.span : undefined} className={styles.cell}>
            {c.bars.length === 0 ? (
              <Link
                href={bookHref(days[c.day]!)}
                className={styles.free}
                aria-label={t('grid.book', { room: room.label, date: dayName(days[c.day]!) })}
                data-testid="grid-free"
              >
                <span aria-hidden="true">+</span>
              </Link>
            ) : (
              c.bars.map((bar) => <Bar key={bar.reservationId} bar={bar} room={room} dayName={dayName} t={t} />)
            )}
          </td>
        ))}
      </tr>
    </>
  );
}

function Bar({
  bar,
  room,
  dayName,
  t,
}: {
  bar: GridBar;
  room: GridRoom;
  dayName: (d: string) => string;
  t: Translate;
}) {
  const guest = bar.guestName ?? t('guest.deletedAccount');
  const status = t(`reservation.status.${bar.status}`);
  const localDay = (at: Date) => dayName(zonedToday(at, room.timeZone));
  return (
    <Link
      href={`/desk/reservations/${bar.reservationId}`}
      className={styles.bar}
      data-status={bar.status}
      data-clipped-start={bar.clippedStart || undefined}
      data-clipped-end={bar.clippedEnd || undefined}
      data-testid="grid-bar"
      aria-label={t('grid.bar', {
        room: room.label,
        guest,
        status,
        from: localDay(bar.startsAt),
        to: localDay(bar.endsAt),
      })}
    >
      {bar.clippedStart && (
        <span className={styles.clip} aria-hidden="true" title={t('grid.continuesBefore')}>
          ‹
        </span>
      )}
      <span className={styles.guest}>{guest}</span>
      <span className={styles.status}>{status}</span>
      {bar.clippedEnd && (
        <span className={styles.clip} aria-hidden="true" title={t('grid.continuesAfter')}>
          ›
        </span>
      )}
    </Link>
  );
}
