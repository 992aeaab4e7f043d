import type { ReservationStatus } from '../db/generated/enums';
import { runStatements, sqlLiteral, type Statement } from '../db/tx';
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
  /** When the guest first opened the door with their code; null until then. */
  arrivedAt: Date | null;
};

export type DeskDay = { arrivals: DayStay[]; inHouse: DayStay[]; departures: DayStay[] };

const ARRIVING: readonly ReservationStatus[] = ['held', 'confirmed'];
const DEPARTING: readonly ReservationStatus[] = ['checked_in', 'checked_out'];

/** Every zone's "today" lies within a day and a half of now: the stretch the desk's day reads and watches. */
export function deskDayWindow(now: Date): { from: Date; to: Date } {
  return { from: new Date(now.getTime() - 36 * 3_600_000), to: new Date(now.getTime() + 36 * 3_600_000) };
}

/**
 * The desk's day, each stay judged by its own facility's "today" (its time zone): arrivals (not yet
 * checked in, due today — a late one stays until its window ends), in house (checked in), and
 * departures (checked in or out, ending today). Cancelled stays never appear. One statement, to run
 * with others (`readDeskToday`) or alone (`deskDay`).
 */
export function deskDayStatement({ tenantId, now }: { tenantId: string; now: Date }): Statement<DeskDay> {
  // Every zone's "today" lies within a day and a half of now; checked-in stays are in house whatever their dates.
  // Two scans, so neither depends on the other's estimate: the stays ending from a day and a half ago on
  // (reservations_tenant_end) and the checked-in ones (the partial index reservations_checked_in). Its
  // status is a literal because row-level security keeps an enum comparison out of index conditions: the
  // planner must prove the partial index's predicate from a constant. Neither reads the years of stays
  // behind today, and each guest is read by its key (a join could hash every guest the tenant ever had
  // when the checked-in scan is misestimated).
  const tenant = sqlLiteral(tenantId, 'uuid');
  const window = deskDayWindow(now);
  const until = sqlLiteral(window.to, 'timestamptz');
  const since = sqlLiteral(window.from, 'timestamptz');
  return {
    sql: `select r.id, r.room_label_snapshot as "roomLabel", f.name as "facilityName",
             (select g.name from guests g where g.tenant_id = r.tenant_id and g.id = r.guest_id) as "guestName",
             r.starts_at as "startsAt", r.ends_at as "endsAt", r.status::text as status, f.time_zone as "timeZone",
             r.arrived_at as "arrivedAt"
        from (select tenant_id, id, room_id, guest_id, room_label_snapshot, starts_at, ends_at, status, arrived_at
                from reservations
               where tenant_id = ${tenant} and ends_at > ${since} and starts_at < ${until} and status <> 'cancelled'
              union
              select tenant_id, id, room_id, guest_id, room_label_snapshot, starts_at, ends_at, status, arrived_at
                from reservations
               where tenant_id = ${tenant} and status = 'checked_in' and starts_at < ${until}) r
        join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
        join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
       order by r.starts_at, r.id`,
    rows: (rows) => {
      const day: DeskDay = { arrivals: [], inHouse: [], departures: [] };
      for (const stay of rows as DayStay[]) {
        const { start, end } = zonedDayBounds(now, stay.timeZone);
        const { status, startsAt, endsAt } = stay;
        if (ARRIVING.includes(status) && startsAt < end && endsAt > start) day.arrivals.push(stay);
        if (status === 'checked_in' && startsAt < end) day.inHouse.push(stay);
        if (DEPARTING.includes(status) && endsAt >= start && endsAt < end) day.departures.push(stay);
      }
      day.departures.sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime() || a.id.localeCompare(b.id));
      return day;
    },
  };
}

/** Whose desk, as which staff member, and when ("today" in each facility's zone); now by default. */
export type DeskScope = { tenantId: string; userId?: string; now?: Date };

/** `deskDayStatement` in one round trip, as the tenant's staff. */
export async function deskDay({ tenantId, userId, now = new Date() }: DeskScope): Promise<DeskDay> {
  const [day] = await runStatements({ role: 'app_authenticated', tenantId, userId }, [
    deskDayStatement({ tenantId, now }),
  ]);
  return day;
}
