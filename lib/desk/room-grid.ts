import type { BookingUnit, ReservationStatus } from '../db/generated/enums';
import { withTenant } from '../db/tx';
import { addDays, calendarDay, zonedToday, zonedWallTime } from '../bookings/stay-window';

/** The most days one grid shows. */
export const MAX_GRID_DAYS = 31;

export type GridBar = {
  reservationId: string;
  guestName: string | null;
  status: ReservationStatus;
  startsAt: Date;
  endsAt: Date;
  /** First and last column (0-based, inclusive) the bar covers inside the range. */
  firstDay: number;
  lastDay: number;
  /** The stay goes on before the range's first day / after its last. */
  clippedStart: boolean;
  clippedEnd: boolean;
};

export type GridRoom = {
  id: string;
  label: string;
  facilityId: string;
  facilityName: string;
  bookingUnit: BookingUnit;
  timeZone: string;
  bars: GridBar[];
};

/** `window`: the instants the grid's days span in every zone, which an open grid watches for new stays. */
export type RoomGrid = { days: string[]; rooms: GridRoom[]; window: { from: Date; to: Date } };

/**
 * The local calendar days a stay occupies: its nights (check-in day to the day before check-out), or
 * the one day of a stay that starts and ends on the same date (an hourly booking).
 */
export function stayDays(startsAt: Date, endsAt: Date, timeZone: string): { first: number; last: number } {
  const first = calendarDay(zonedToday(startsAt, timeZone))!;
  const end = calendarDay(zonedToday(endsAt, timeZone))!;
  return { first, last: Math.max(first, end - 1) };
}

/**
 * The room-by-day grid of `days` days from `from` (YYYY-MM-DD, each facility's own calendar): every
 * room that is not archived (of one facility when given), by facility then label, with the
 * non-cancelled stays as bars clipped to the range.
 */
export async function roomGrid({
  tenantId,
  userId,
  from,
  days,
  facilityId,
}: {
  tenantId: string;
  userId?: string;
  from: string;
  days: number;
  facilityId?: string;
}): Promise<RoomGrid> {
  const count = Math.min(Math.max(1, Math.trunc(days)), MAX_GRID_DAYS);
  const firstDay = calendarDay(from);
  if (firstDay === null) throw new RangeError(`not a calendar date: ${from}`);
  const dayList = Array.from({ length: count }, (_, i) => addDays(from, i));
  // Wide enough for every zone: the range's first midnight in UTC±14 h.
  const lower = new Date(zonedWallTime(from, 0, 'UTC').getTime() - 15 * 3_600_000);
  const upper = new Date(zonedWallTime(addDays(from, count), 0, 'UTC').getTime() + 15 * 3_600_000);
  const { rooms, stays } = await withTenant({ tenantId, userId }, async (tx) => ({
    rooms: await tx.room.findMany({
      where: { tenantId, archivedAt: null, ...(facilityId ? { facilityId } : {}) },
      include: { facility: { select: { name: true, timeZone: true, bookingUnit: true } } },
    }),
    stays: await tx.reservation.findMany({
      where: {
        tenantId,
        status: { not: 'cancelled' },
        startsAt: { lt: upper },
        endsAt: { gt: lower },
        room: { archivedAt: null, ...(facilityId ? { facilityId } : {}) },
      },
      include: { guest: { select: { name: true } } },
      orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
    }),
  }));
  const sorted = [...rooms].sort(
    (a, b) =>
      a.facility.name.localeCompare(b.facility.name) ||
      a.facilityId.localeCompare(b.facilityId) ||
      a.label.localeCompare(b.label, undefined, { numeric: true }),
  );
  return {
    window: { from: lower, to: upper },
    days: dayList,
    rooms: sorted.map((room) => ({
      id: room.id,
      label: room.label,
      facilityId: room.facilityId,
      facilityName: room.facility.name,
      bookingUnit: room.facility.bookingUnit,
      timeZone: room.facility.timeZone,
      bars: stays
        .filter((s) => s.roomId === room.id)
        .flatMap((s) => {
          const { first, last } = stayDays(s.startsAt, s.endsAt, room.facility.timeZone);
          if (last < firstDay || first > firstDay + count - 1) return [];
          return [
            {
              reservationId: s.id,
              guestName: s.guest?.name ?? null,
              status: s.status,
              startsAt: s.startsAt,
              endsAt: s.endsAt,
              firstDay: Math.max(0, first - firstDay),
              lastDay: Math.min(count - 1, last - firstDay),
              clippedStart: first < firstDay,
              clippedEnd: last > firstDay + count - 1,
            },
          ];
        }),
    })),
  };
}

/** One cell of a room's row: `span` days from `day`, holding the bars that cover those days (none: free). */
export type GridCell = { day: number; span: number; bars: GridBar[] };

/**
 * A room's row as cells: each free day its own cell (to book from), consecutive days covered by the
 * same stays merged into one cell spanning them (a stay's bar).
 */
export function gridCells(bars: GridBar[], days: number): GridCell[] {
  const cells: GridCell[] = [];
  for (let day = 0; day < days; day++) {
    const covering = bars.filter((b) => b.firstDay <= day && day <= b.lastDay);
    const last = cells.at(-1);
    const same =
      last !== undefined &&
      covering.length > 0 &&
      last.bars.length === covering.length &&
      last.bars.every((b, i) => b.reservationId === covering[i]!.reservationId);
    if (same) last.span += 1;
    else cells.push({ day, span: 1, bars: covering });
  }
  return cells;
}
