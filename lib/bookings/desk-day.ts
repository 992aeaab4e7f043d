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
  // The statuses are literals, not parameters: row-level security keeps an enum comparison out of index
  // conditions, so the checked-in stays are found through a partial index (reservations_checked_in) whose
  // predicate the planner proves only from a constant — with the stays ending from a day and a half ago
  // on (reservations_tenant_end), a BitmapOr of two small scans, however many years of stays lie behind.
  const rows = await withTenant(
    { tenantId, userId },
    (tx) =>
      tx.$queryRaw<DayStay[]>`
      select r.id, r.room_label_snapshot as "roomLabel", f.name as "facilityName", g.name as "guestName",
             r.starts_at as "startsAt", r.ends_at as "endsAt", r.status::text as status, f.time_zone as "timeZone"
        from reservations r
        join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
        join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
        left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
       where r.tenant_id = ${tenantId}::uuid
         and r.status <> 'cancelled'
         and r.starts_at < ${new Date(now.getTime() + 36 * 3_600_000)}::timestamptz
         and (r.ends_at > ${new Date(now.getTime() - 36 * 3_600_000)}::timestamptz or r.status = 'checked_in')
       order by r.starts_at, r.id`,
  );
  const day: DeskDay = { arrivals: [], inHouse: [], departures: [] };
  for (const stay of rows) {
    const { start, end } = zonedDayBounds(now, stay.timeZone);
    const { status, startsAt, endsAt } = stay;
    if (ARRIVING.includes(status) && startsAt < end && endsAt > start) day.arrivals.push(stay);
    if (status === 'checked_in' && startsAt < end) day.inHouse.push(stay);
    if (DEPARTING.includes(status) && endsAt >= start && endsAt < end) day.departures.push(stay);
  }
  day.departures.sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime() || a.id.localeCompare(b.id));
  return day;
}
