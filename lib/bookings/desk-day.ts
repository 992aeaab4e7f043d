import type { ReservationStatus } from '../db/generated/enums';
import { withTenant } from '../db/tx';
import { zonedDayBounds } from '../time/zoned-day';

export type DayStay = {
  id: string;
  roomLabel: string;
  facilityName: string;
  /** The guest's name, or null once the guest is deleted (show the tombstone). */
  guestName: string | null;
  startsAt: Date;
  endsAt: Date;
  status: ReservationStatus;
  /** The facility's IANA zone: its "today" and every time shown. */
  timeZone: string;
};

export type DeskDay = { arrivals: DayStay[]; inHouse: DayStay[]; departures: DayStay[] };

const ARRIVING: readonly ReservationStatus[] = ['held', 'confirmed'];
const DEPARTING: readonly ReservationStatus[] = ['checked_in', 'checked_out'];

/**
 * The desk's day, each stay judged by its own facility's "today" (its time zone): arrivals (not yet
 * checked in, due today — a late one stays until its window ends), in house (checked in), and
 * departures (checked in or out, ending today). Cancelled stays never appear.
 */
export async function deskDay({
  tenantId,
  userId,
  now = new Date(),
}: {
  tenantId: string;
  userId?: string;
  now?: Date;
}): Promise<DeskDay> {
  // Every zone's "today" lies within a day and a half of now; checked-in stays are in house whatever their dates.
  const rows = await withTenant({ tenantId, userId }, (tx) =>
    tx.reservation.findMany({
      where: {
        tenantId,
        status: { not: 'cancelled' },
        startsAt: { lt: new Date(now.getTime() + 36 * 3_600_000) },
        OR: [{ endsAt: { gt: new Date(now.getTime() - 36 * 3_600_000) } }, { status: 'checked_in' }],
      },
      include: {
        guest: { select: { name: true } },
        room: { select: { facility: { select: { name: true, timeZone: true } } } },
      },
      orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
    }),
  );
  const day: DeskDay = { arrivals: [], inHouse: [], departures: [] };
  for (const r of rows) {
    const { start, end } = zonedDayBounds(now, r.room.facility.timeZone);
    const stay: DayStay = {
      id: r.id,
      roomLabel: r.roomLabelSnapshot,
      facilityName: r.room.facility.name,
      guestName: r.guest?.name ?? null,
      startsAt: r.startsAt,
      endsAt: r.endsAt,
      status: r.status,
      timeZone: r.room.facility.timeZone,
    };
    if (ARRIVING.includes(r.status) && r.startsAt < end && r.endsAt > start) day.arrivals.push(stay);
    if (r.status === 'checked_in' && r.startsAt < end) day.inHouse.push(stay);
    if (DEPARTING.includes(r.status) && r.endsAt >= start && r.endsAt < end) day.departures.push(stay);
  }
  day.departures.sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime() || a.id.localeCompare(b.id));
  return day;
}
