import { runInTransaction, sqlArray, sqlLiteral, statement, type Tx, withTenant } from '../db/tx';
import { nameRecords, type ReservationName } from '../records/name-records';

/** Days the overview's charts cover, today included. */
export const OVERVIEW_DAYS = 14;
/** Keys the "keys pending or failed" tile names (room and guest); the rest are counted. */
export const OVERVIEW_KEYS_NAMED = 5;

export type FacilityOccupancy = {
  facilityId: string;
  name: string;
  timeZone: string;
  bookingUnit: 'night' | 'hour';
  /** The facility's local date the figure is for (YYYY-MM-DD): tonight's for a nightly facility, today's for an hourly one. */
  day: string;
  rooms: number;
  occupied: number;
};

/** One local day (YYYY-MM-DD in the tenant's zone) of the charts. */
export type OverviewDay = {
  day: string;
  checkIns: number;
  keysIssued: number;
  keysFailed: number;
  webhooks: number;
  webhookFailures: number;
};

export type UnsyncedKey = ReservationName & { keyId: string; vendorSync: 'pending' | 'failed' };

export type OverviewFigures = {
  occupancy: FacilityOccupancy[];
  keys: { pending: number; failed: number; named: UnsyncedKey[] };
  /** Open incidents: the tenant's own and the whole install's (a worker or provider down), which every tenant sees. */
  incidents: { open: number; critical: number; installWide: number; installWideCritical: number };
  /** Webhook events failed, dead or rejected in the 24 hours before `now`. */
  webhookFailures24h: number;
  /** Guest messages and managers' alerts that failed after every retry. */
  messagesFailed: number;
  days: OverviewDay[];
};

// Reservation states that occupy a room: a held booking (unpaid, may lapse) and a cancelled one do not.
// Listed rather than "not cancelled", so a state added later is not counted by accident.
const OCCUPYING = ['confirmed', 'checked_in', 'checked_out'];

/**
 * Each facility's rooms (not archived) and how many are occupied, in the facility's own time zone:
 * a nightly facility counts the rooms sold for tonight (a stay overlapping today's check-in time to
 * tomorrow's check-out time); an hourly one counts the rooms booked at any time today.
 *
 * Cheap with any history: a stay overlapping [since, until) either starts inside it (a range of
 * reservations_room_time) or contains `since` — and then, as a room's stays never overlap (the
 * exclusion constraint), it is the room's last stay starting before `since` (one backward index
 * step). Plain comparisons, not `&&` on ranges: under row-level security only leakproof operators
 * become index conditions, and range overlap is not one.
 */
async function occupancy(tx: Tx, tenantId: string, now: Date): Promise<FacilityOccupancy[]> {
  const [rows] = await runInTransaction(tx, [
    statement<FacilityOccupancy>(`
    select f.id::text as "facilityId", f.name, f.time_zone as "timeZone", f.booking_unit::text as "bookingUnit",
           to_char(w.today, 'YYYY-MM-DD') as day,
           count(ro.id)::int as rooms,
           count(ro.id) filter (where
             exists (select 1 from reservations s
                      where s.tenant_id = ro.tenant_id and s.room_id = ro.id
                        and s.starts_at >= w.since and s.starts_at < w.until
                        and s.status::text = any(${sqlArray(OCCUPYING, 'text')}))
             or exists (select 1 from (select s.ends_at, s.status from reservations s
                                         where s.tenant_id = ro.tenant_id and s.room_id = ro.id
                                           and s.starts_at < w.since and s.status::text <> 'cancelled'
                                         order by s.starts_at desc limit 1) last
                         where last.ends_at > w.since and last.status::text = any(${sqlArray(OCCUPYING, 'text')}))
           )::int as occupied
      from facilities f
      cross join lateral (select (${sqlLiteral(now, 'timestamptz')} at time zone f.time_zone)::date as today) d
      cross join lateral (
        select d.today,
               case when f.booking_unit = 'night' then (d.today + f.check_in_time) at time zone f.time_zone
                    else d.today::timestamp at time zone f.time_zone end as since,
               case when f.booking_unit = 'night' then (d.today + 1 + f.check_out_time) at time zone f.time_zone
                    else (d.today + 1)::timestamp at time zone f.time_zone end as until) w
      left join rooms ro on ro.tenant_id = f.tenant_id and ro.facility_id = f.id and ro.archived_at is null
     where f.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
     group by f.id, f.name, f.time_zone, f.booking_unit, w.today, f.created_at
     order by f.created_at, f.name`),
  ]);
  return rows;
}

/**
 * The last `OVERVIEW_DAYS` local days in `timeZone` (oldest first, every day present): check-ins,
 * keys issued (and of them failed on their lock), webhook deliveries (and failed, dead or rejected).
 * Each count is one range scan of a (tenant, time) index over the window, grouped by local day.
 */
async function perDay(tx: Tx, tenantId: string, timeZone: string, now: Date): Promise<OverviewDay[]> {
  const [rows] = await runInTransaction(tx, [
    statement<OverviewDay>(`
    with w as (
      select today, (today - ${sqlLiteral(OVERVIEW_DAYS - 1, 'int')})::timestamp at time zone ${sqlLiteral(timeZone, 'text')} as since,
             (today + 1)::timestamp at time zone ${sqlLiteral(timeZone, 'text')} as until
        from (select (${sqlLiteral(now, 'timestamptz')} at time zone ${sqlLiteral(timeZone, 'text')})::date as today) d
    ),
    days as (select (w.today - g)::date as day from w, generate_series(${sqlLiteral(OVERVIEW_DAYS - 1, 'int')}, 0, -1) g),
    ci as (
      select (c.created_at at time zone ${sqlLiteral(timeZone, 'text')})::date as day, count(*)::int as n
        from check_ins c, w
       where c.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and c.created_at >= w.since and c.created_at < w.until
       group by 1
    ),
    k as (
      select (k.created_at at time zone ${sqlLiteral(timeZone, 'text')})::date as day, count(*)::int as n,
             count(*) filter (where k.vendor_sync = 'failed')::int as failed
        from access_keys k, w
       where k.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and k.created_at >= w.since and k.created_at < w.until
       group by 1
    ),
    wh as (
      select (e.received_at at time zone ${sqlLiteral(timeZone, 'text')})::date as day, count(*)::int as n,
             count(*) filter (where e.status in ('failed', 'dead', 'rejected'))::int as failed
        from webhook_events e, w
       where e.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and e.received_at >= w.since and e.received_at < w.until
       group by 1
    )
    select to_char(days.day, 'YYYY-MM-DD') as day,
           coalesce(ci.n, 0) as "checkIns", coalesce(k.n, 0) as "keysIssued", coalesce(k.failed, 0) as "keysFailed",
           coalesce(wh.n, 0) as webhooks, coalesce(wh.failed, 0) as "webhookFailures"
      from days
      left join ci on ci.day = days.day
      left join k on k.day = days.day
      left join wh on wh.day = days.day
     order by days.day`),
  ]);
  return rows;
}

/** Live keys not (yet) on their lock: counts, and the oldest few named by room and guest. */
async function unsyncedKeys(tx: Tx, tenantId: string): Promise<OverviewFigures['keys']> {
  const [[counts]] = await runInTransaction(tx, [
    statement<{ pending: number; failed: number }>(`
    select count(*) filter (where vendor_sync = 'pending')::int as pending,
           count(*) filter (where vendor_sync = 'failed')::int as failed
      from access_keys
     where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
       and vendor_sync <> 'synced' and status in ('pre_issued', 'active')`),
  ]);
  // Failed first: those need a person; pending ones usually resolve by themselves.
  const [oldest] = await runInTransaction(tx, [
    statement<{ keyId: string; vendorSync: 'pending' | 'failed' }>(`
    select id::text as "keyId", vendor_sync::text as "vendorSync"
      from access_keys
     where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
       and vendor_sync <> 'synced' and status in ('pre_issued', 'active')
     order by vendor_sync = 'failed' desc, created_at, id
     limit ${sqlLiteral(OVERVIEW_KEYS_NAMED, 'int')}`),
  ]);
  const names = await nameRecords(tx, tenantId, { keyIds: oldest.map((k) => k.keyId) });
  return {
    pending: counts?.pending ?? 0,
    failed: counts?.failed ?? 0,
    named: oldest.flatMap((k) => (names.keys[k.keyId] ? [{ ...k, ...names.keys[k.keyId]! }] : [])),
  };
}

/**
 * A tenant's overview for its managers at `now`: occupancy per facility in each facility's zone,
 * live keys not on their lock, open incidents (with those of the whole install), webhook failures
 * of the last 24 hours, failed guest messages, and per-day counts of the last 14 days in `timeZone`.
 * Every figure is read within `tenantId`; nothing of another tenant is counted.
 */
export async function overviewFigures({
  tenantId,
  timeZone,
  now = new Date(),
}: {
  tenantId: string;
  timeZone: string;
  now?: Date;
}): Promise<OverviewFigures> {
  const figures = await withTenant({ tenantId }, async (tx) => {
    const occ = await occupancy(tx, tenantId, now);
    const keys = await unsyncedKeys(tx, tenantId);
    const [[incidents]] = await runInTransaction(tx, [
      statement<OverviewFigures['incidents']>(`
      select count(*)::int as open, count(*) filter (where severity = 'critical')::int as critical,
             count(*) filter (where tenant_id is null)::int as "installWide",
             count(*) filter (where tenant_id is null and severity = 'critical')::int as "installWideCritical"
        from incidents where (tenant_id = ${sqlLiteral(tenantId, 'uuid')}
          or tenant_id is null) and resolved_at is null`),
    ]);
    const [[webhooks]] = await runInTransaction(tx, [
      statement<{ n: number }>(`
      select count(*)::int as n from webhook_events
       where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
         and received_at > ${sqlLiteral(now, 'timestamptz')} - interval '24 hours'
         and received_at <= ${sqlLiteral(now, 'timestamptz')} and status in ('failed', 'dead', 'rejected')`),
    ]);
    // Guest messages (and managers' alerts) that the worker gave up on (lib/messages).
    const [[messages]] = await runInTransaction(tx, [
      statement<{ n: number }>(`
      select count(*)::int as n from messages where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and status = 'failed'`),
    ]);
    const days = await perDay(tx, tenantId, timeZone, now);
    return {
      occupancy: occ,
      keys,
      incidents: incidents ?? { open: 0, critical: 0, installWide: 0, installWideCritical: 0 },
      webhookFailures24h: webhooks?.n ?? 0,
      messagesFailed: messages?.n ?? 0,
      days,
    };
  });
  return figures;
}
