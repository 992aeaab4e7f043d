import { runInTransaction, sqlArray, sqlLiteral, statement, type Tx } from '../db/tx';
import type { LockName, ReservationName, RoomName, WebhookEventName } from './record-names';

export { recordHref, type LockName, type ReservationName, type RoomName, type WebhookEventName } from './record-names';

export type RecordRefs = {
  reservationIds?: Iterable<unknown>;
  keyIds?: Iterable<unknown>;
  lockIds?: Iterable<unknown>;
  roomIds?: Iterable<unknown>;
  webhookEventIds?: Iterable<unknown>;
};

/** What each referenced id names, per kind; ids of another tenant or of nothing are simply absent. */
export type RecordNames = {
  reservations: Record<string, ReservationName>;
  /** A key names its own room (a moved stay's old key keeps its old room) and its reservation's guest. */
  keys: Record<string, ReservationName>;
  locks: Record<string, LockName>;
  rooms: Record<string, RoomName>;
  webhookEvents: Record<string, WebhookEventName>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The distinct well-formed UUIDs among `values` (metadata is free-form: anything else is dropped, never cast). */
function uuids(values: Iterable<unknown> | undefined): string[] {
  const out = new Set<string>();
  for (const v of values ?? []) if (typeof v === 'string' && UUID.test(v)) out.add(v.toLowerCase());
  return [...out];
}

const byId = <T>(rows: T[], id: (row: T) => string): Record<string, T> =>
  Object.fromEntries(rows.map((row) => [id(row), row]));

type NameRows = {
  reservations: ReservationName[];
  keys: (ReservationName & { keyId: string })[];
  locks: LockName[];
  rooms: RoomName[];
  events: (Omit<WebhookEventName, 'receivedAt'> & { receivedAt: string })[];
};

/**
 * Names the records a list refers to, in the caller's transaction, always within `tenantId`: one
 * statement, each record read once by primary key (a stay named directly and through one of its keys,
 * and a guest of several stays, are read once), never one query per row.
 */
export async function nameRecords(tx: Tx, tenantId: string, refs: RecordRefs): Promise<RecordNames> {
  const reservationIds = uuids(refs.reservationIds);
  const keyIds = uuids(refs.keyIds);
  const lockIds = uuids(refs.lockIds);
  const roomIds = uuids(refs.roomIds);
  const eventIds = uuids(refs.webhookEventIds);
  const empty = { reservations: [], keys: [], locks: [], rooms: [], events: [] };
  // Each CTE is read once (materialized: referenced twice); `= any(array(…))` keeps every read an index probe,
  // and a kind with no ids is not read at all (`cardinality(…) > 0` folds to false when planned).
  const [names = empty] =
    reservationIds.length + keyIds.length + lockIds.length + roomIds.length + eventIds.length === 0
      ? []
      : await runInTransaction(tx, [
          statement<NameRows>(`
          with k as (
            select k.id, k.reservation_id, k.room_id from access_keys k
             where k.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and k.id = any(${sqlArray(keyIds, 'uuid')})
          ), r as (
            select r.id, r.room_label_snapshot, r.guest_id from reservations r
             where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
               and r.id = any(array(select k.reservation_id from k) || ${sqlArray(reservationIds, 'uuid')})
          ), g as (
            select g.id, g.name from guests g
             where g.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and g.id = any(array(select r.guest_id from r))
          ), ro as (
            select ro.id, ro.label from rooms ro
             where ro.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
               and ro.id = any(array(select k.room_id from k) || ${sqlArray(roomIds, 'uuid')})
          )
          select
            (select coalesce(json_agg(json_build_object('reservationId', r.id, 'roomLabel', r.room_label_snapshot,
                                                        'guestName', g.name)), '[]')
               from r left join g on g.id = r.guest_id where r.id = any(${sqlArray(reservationIds, 'uuid')})) as reservations,
            (select coalesce(json_agg(json_build_object('keyId', k.id, 'reservationId', r.id,
                                                        'roomLabel', coalesce(ro.label, r.room_label_snapshot),
                                                        'guestName', g.name)), '[]')
               from k join r on r.id = k.reservation_id left join ro on ro.id = k.room_id
               left join g on g.id = r.guest_id) as keys,
            (select coalesce(json_agg(json_build_object('id', l.id, 'name', l.name)), '[]')
               from locks l
              where cardinality(${sqlArray(lockIds, 'uuid')}) > 0
                and l.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
                  and l.id = any(${sqlArray(lockIds, 'uuid')})) as locks,
            (select coalesce(json_agg(json_build_object('id', ro.id, 'label', ro.label)), '[]')
               from ro where ro.id = any(${sqlArray(roomIds, 'uuid')})) as rooms,
            (select coalesce(json_agg(json_build_object('id', e.id, 'provider', e.provider, 'type', e.type,
                                                        'status', e.status, 'receivedAt', e.received_at)), '[]')
               from webhook_events e
              where cardinality(${sqlArray(eventIds, 'uuid')}) > 0
                and e.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
                  and e.id = any(${sqlArray(eventIds, 'uuid')})) as events`),
        ]).then(([rows]) => rows);
  return {
    reservations: byId(names.reservations, (r) => r.reservationId),
    keys: Object.fromEntries(names.keys.map(({ keyId, ...name }) => [keyId, name])),
    locks: byId(names.locks, (l) => l.id),
    rooms: byId(names.rooms, (r) => r.id),
    webhookEvents: byId(
      names.events.map((e) => ({ ...e, receivedAt: new Date(e.receivedAt).toISOString() })),
      (e) => e.id,
    ),
  };
}
