import type { Tx } from '../db/tx';

/**
 * A stay as a person reads it: its room and guest ("Room 102 · Kenji Sato"). `guestName` is null once
 * the guest is deleted (shown as "Deleted account"). Names are read now, never copied into audit
 * metadata, so deleting a guest erases the name everywhere it was shown.
 */
export type ReservationName = { reservationId: string; roomLabel: string; guestName: string | null };
export type LockName = { id: string; name: string };
export type RoomName = { id: string; label: string };
export type WebhookEventName = { id: string; provider: string; type: string; status: string; receivedAt: string };

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

/**
 * Names the records a list refers to, in the caller's transaction, one primary-key lookup per kind
 * (never one per row), always within `tenantId`.
 */
export async function nameRecords(tx: Tx, tenantId: string, refs: RecordRefs): Promise<RecordNames> {
  const reservationIds = uuids(refs.reservationIds);
  const keyIds = uuids(refs.keyIds);
  const lockIds = uuids(refs.lockIds);
  const roomIds = uuids(refs.roomIds);
  const eventIds = uuids(refs.webhookEventIds);
  // Queries in sequence: an interactive transaction holds one connection.
  const reservations =
    reservationIds.length === 0
      ? []
      : await tx.$queryRaw<ReservationName[]>`
          select r.id::text as "reservationId", r.room_label_snapshot as "roomLabel", g.name as "guestName"
            from reservations r
            left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
           where r.tenant_id = ${tenantId}::uuid and r.id = any(${reservationIds}::uuid[])`;
  const keys =
    keyIds.length === 0
      ? []
      : await tx.$queryRaw<(ReservationName & { keyId: string })[]>`
          select k.id::text as "keyId", r.id::text as "reservationId",
                 coalesce(ro.label, r.room_label_snapshot) as "roomLabel", g.name as "guestName"
            from access_keys k
            join reservations r on r.tenant_id = k.tenant_id and r.id = k.reservation_id
            left join rooms ro on ro.tenant_id = k.tenant_id and ro.id = k.room_id
            left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
           where k.tenant_id = ${tenantId}::uuid and k.id = any(${keyIds}::uuid[])`;
  const locks =
    lockIds.length === 0
      ? []
      : await tx.$queryRaw<LockName[]>`select id::text as id, name from locks
           where tenant_id = ${tenantId}::uuid and id = any(${lockIds}::uuid[])`;
  const rooms =
    roomIds.length === 0
      ? []
      : await tx.$queryRaw<RoomName[]>`select id::text as id, label from rooms
           where tenant_id = ${tenantId}::uuid and id = any(${roomIds}::uuid[])`;
  const events =
    eventIds.length === 0
      ? []
      : await tx.$queryRaw<(Omit<WebhookEventName, 'receivedAt'> & { receivedAt: Date })[]>`
          select id::text as id, provider::text as provider, type, status::text as status, received_at as "receivedAt"
            from webhook_events where tenant_id = ${tenantId}::uuid and id = any(${eventIds}::uuid[])`;
  return {
    reservations: byId(reservations, (r) => r.reservationId),
    keys: Object.fromEntries(keys.map(({ keyId, ...name }) => [keyId, name])),
    locks: byId(locks, (l) => l.id),
    rooms: byId(rooms, (r) => r.id),
    webhookEvents: byId(
      events.map((e) => ({ ...e, receivedAt: e.receivedAt.toISOString() })),
      (e) => e.id,
    ),
  };
}

/** Where a record is read and acted on, for the pages that link to it. */
export const recordHref = {
  reservation: (id: string) => `/desk/reservations/${id}`,
  lock: (id: string) => `/manage/locks#lock-${id}`,
  webhookEvent: (id: string) => `/manage/webhooks?event=${id}`,
  bookingSources: () => '/manage/booking-sources',
} as const;
