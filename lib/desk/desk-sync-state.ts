import { runStatements, sqlArray, sqlLiteral, type Statement } from '../db/tx';

/** How many reservations one poll may watch. */
export const MAX_WATCHED = 200;

export type DeskSyncState = {
  /** Live keys of these reservations whose doors have not all confirmed (or failed) yet. */
  pending: number;
  /** Guest messages of these reservations still on their way to the mail server. */
  messagesOnTheWay: number;
  /**
   * Changes whenever a watched reservation (its arrival too), one of its keys, their doors, its messages, its
   * guest's messages or the door openings by its keys change.
   */
  fingerprint: string;
};

/** The longest range of time a screen may watch (a grid of 62 days and a margin). */
export const MAX_WATCHED_RANGE_MS = 64 * 86_400_000;

type Input = {
  tenantId: string;
  reservationIds: string[];
  /**
   * The stretch of time the screen shows (the desk's day, the grid's days): the tenant's stays that
   * overlap it are watched too, so a booking made after the page rendered (or on an empty page)
   * changes the fingerprint.
   */
  window?: { from: Date; to: Date };
};

/**
 * What an open desk screen polls: whether any key of `reservationIds` (the tenant's only; other ids
 * are ignored) is still waiting for its lock, and a fingerprint of their state and of the stays in
 * the screen's `window`, so the screen reloads its data only when something changed. One statement: the counts and the fingerprint are
 * made in the database, from the watched stays, their keys, the keys' doors, the stays' messages, what their
 * guests sent the desk and the doors their keys opened.
 */
export function deskSyncStatement({ tenantId, reservationIds, window }: Input): Statement<DeskSyncState> {
  const ids = [...new Set(reservationIds)].slice(0, MAX_WATCHED);
  const tenant = sqlLiteral(tenantId, 'uuid');
  // arrived_at: an open desk shows "Arrived" as soon as the guest's code opens the door.
  const columns = 'id, status, room_id, starts_at, ends_at, arrived_at';
  // The window's stays by the tenant's end-time index; the union keeps each stay once.
  const inWindow = window
    ? `union select ${columns} from reservations
        where tenant_id = ${tenant} and ends_at > ${sqlLiteral(window.from, 'timestamptz')}
          and starts_at < ${sqlLiteral(window.to, 'timestamptz')}`
    : '';
  return {
    sql: `with r as (select ${columns} from reservations
                      where tenant_id = ${tenant} and id = any(${sqlArray(ids, 'uuid')})
                     ${inWindow}),
               k as (select k.id, k.reservation_id, k.status, k.vendor_sync, k.updated_at from access_keys k
                      where k.tenant_id = ${tenant} and k.reservation_id in (select id from r)),
               d as (select d.key_id, d.lock_id, d.state, d.updated_at from key_lock_codes d
                      where d.tenant_id = ${tenant} and d.key_id in (select id from k)),
               m as (select m.id, m.status, m.attempts, m.updated_at from messages m
                      where m.tenant_id = ${tenant} and m.reservation_id in (select id from r)),
               g as (select g.id, g.occurrences, g.read_at from guest_messages g
                      where g.tenant_id = ${tenant} and g.reservation_id in (select id from r)),
               e as (select e.id from door_entries e
                      where e.tenant_id = ${tenant} and e.key_id in (select id from k))
          select (select count(*) from k where status in ('pre_issued', 'active') and vendor_sync = 'pending')::int as pending,
                 (select count(*) from m where status in ('queued', 'sending'))::int as "messagesOnTheWay",
                 md5(json_build_array((select json_agg(r order by id) from r), (select json_agg(k order by id) from k),
                                      (select json_agg(d order by key_id, lock_id) from d),
                                      (select json_agg(m order by id) from m),
                                      (select json_agg(g order by id) from g),
                                      (select json_agg(e.id order by e.id) from e))::text) as fingerprint`,
    rows: (rows) => rows[0] as DeskSyncState,
  };
}

/** `deskSyncStatement` in one round trip, as the tenant's staff. */
export async function deskSyncState({ userId, ...input }: Input & { userId?: string }): Promise<DeskSyncState> {
  const [state] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId, userId }, [
    deskSyncStatement(input),
  ]);
  return state;
}
