import type { LockProvider } from '../db/generated/enums';
import { runStatements, sqlLiteral, statement } from '../db/tx';
import { decodeCursor, encodeCursor } from '../paging/cursor';

export const ENTRY_KINDS = ['unlocked', 'locked'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];
/** How the door was opened: a code typed on it, the provider's app or API, by hand (key or thumb turn), not said. */
export const ENTRY_METHODS = ['code', 'app', 'manual', 'unknown'] as const;
export type EntryMethod = (typeof ENTRY_METHODS)[number];

/** One door opening or locking as a provider reported it (API.md "Door record"). */
export type DoorEntry = {
  id: string;
  occurredAt: Date;
  kind: EntryKind;
  method: EntryMethod;
  provider: LockProvider;
  lockId: string;
  lockName: string;
  /** The key whose code opened the door, its stay and room; null for any other opening. */
  keyId: string | null;
  reservationId: string | null;
  roomId: string | null;
  roomLabel: string | null;
  /** The person who opened it remotely from the desk. */
  userId: string | null;
};

/**
 * Stores one provider-reported door event, once per provider event id within the tenant (a repeat is `duplicate` and
 * writes nothing), linked to the key whose code the provider names on that lock (by code id, or by the PIN typed and
 * the moment) and to the remote unlock that caused it; a new opening is audited `door.opened` and the first opening by
 * a stay's guest code marks the stay arrived, all in one transaction. `null` when the device is not one of the
 * tenant's locks (nothing is stored).
 */
export async function recordDoorEntry(input: {
  tenantId: string;
  provider: LockProvider;
  eventId: string;
  deviceId: string;
  codeId: string | null;
  /** The PIN typed, where the provider names no code id (TTLock): compared in the database, never logged. */
  pin?: string | null;
  kind: EntryKind;
  method: EntryMethod;
  occurredAt: Date;
  /** The provider's action that opened it (a remote unlock from the desk names its person through it). */
  actionId?: string | null;
  /** The provider's own remote unlock without a reference (TTLock's gateway unlock): matched to the desk's by time. */
  remote?: boolean;
  /** What reported it, as the audit row's provider actor id (the webhook event); the provider's name by default. */
  sourceId?: string | null;
}): Promise<{ entryId: string; duplicate: boolean; lockId: string } | null> {
  const { tenantId } = input;
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [recordDoorEntryStatement(input)]);
  const row = rows![0];
  return row ? { entryId: row.entry_id, duplicate: row.duplicate, lockId: row.lock_id } : null;
}

/** The statement of `recordDoorEntry`, to run with others in one transaction. */
export function recordDoorEntryStatement(input: Parameters<typeof recordDoorEntry>[0]) {
  return statement<{ entry_id: string; duplicate: boolean; lock_id: string }>(
    `select entry_id, duplicate, lock_id from app_record_door_entry(${sqlLiteral(input.tenantId, 'uuid')},
       ${sqlLiteral(input.provider, 'lock_provider')}, ${sqlLiteral(input.eventId, 'text')},
       ${sqlLiteral(input.deviceId, 'text')}, ${sqlLiteral(input.codeId, 'text')}, ${sqlLiteral(input.pin ?? null, 'text')},
       ${sqlLiteral(input.kind, 'text')}, ${sqlLiteral(input.method, 'text')},
       ${sqlLiteral(input.occurredAt, 'timestamptz')}, ${sqlLiteral(input.actionId ?? null, 'text')},
       ${sqlLiteral(input.remote ?? false, 'boolean')}, ${sqlLiteral(input.sourceId ?? null, 'text')})`,
  );
}

type EntryRow = {
  id: string;
  occurred_at: Date;
  kind: EntryKind;
  method: EntryMethod;
  provider: LockProvider;
  lock_id: string;
  lock_name: string;
  key_id: string | null;
  reservation_id: string | null;
  room_id: string | null;
  room_label: string | null;
  user_id: string | null;
};

/**
 * The tenant's door entries, newest first, one page at a time (keyset cursor): of one room (its doors, or a key of
 * the room), of one stay (its keys), within `[from, to)`. One round trip as the tenant's staff; with `apiKeyId` the
 * same transaction refuses a key revoked meanwhile.
 */
export async function listDoorEntries(input: {
  tenantId: string;
  apiKeyId?: string;
  roomId?: string;
  reservationId?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}): Promise<{ data: DoorEntry[]; nextCursor: string | null }> {
  const tenant = sqlLiteral(input.tenantId, 'uuid');
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const where = [
    `e.tenant_id = ${tenant}`,
    ...(input.roomId
      ? [
          `(k.room_id = ${sqlLiteral(input.roomId, 'uuid')} or exists (select 1 from room_locks d
             where d.tenant_id = e.tenant_id and d.lock_id = e.lock_id and d.room_id = ${sqlLiteral(input.roomId, 'uuid')}))`,
        ]
      : []),
    ...(input.reservationId ? [`k.reservation_id = ${sqlLiteral(input.reservationId, 'uuid')}`] : []),
    ...(input.from ? [`e.occurred_at >= ${sqlLiteral(input.from, 'timestamptz')}`] : []),
    ...(input.to ? [`e.occurred_at < ${sqlLiteral(input.to, 'timestamptz')}`] : []),
    ...(after
      ? [`(e.occurred_at, e.id) < (${sqlLiteral(after.at, 'timestamptz')}, ${sqlLiteral(after.id, 'uuid')})`]
      : []),
  ];
  const [rows] = await runStatements(
    { role: 'app_authenticated', tenantId: input.tenantId, apiKeyId: input.apiKeyId },
    [
      statement<EntryRow>(
        `select e.id, e.occurred_at, e.kind, e.method, e.provider::text as provider, e.lock_id, l.name as lock_name,
              e.key_id, k.reservation_id, k.room_id, r.label as room_label, e.user_id
         from door_entries e
         join locks l on l.tenant_id = e.tenant_id and l.id = e.lock_id
         left join access_keys k on k.tenant_id = e.tenant_id and k.id = e.key_id
         left join rooms r on r.tenant_id = k.tenant_id and r.id = k.room_id
        where ${where.join(' and ')}
        order by e.occurred_at desc, e.id desc
        limit ${Number(input.limit) + 1}`,
      ),
    ],
  );
  const page = rows!.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => ({
      id: row.id,
      occurredAt: row.occurred_at,
      kind: row.kind,
      method: row.method,
      provider: row.provider,
      lockId: row.lock_id,
      lockName: row.lock_name,
      keyId: row.key_id,
      reservationId: row.reservation_id,
      roomId: row.room_id,
      roomLabel: row.room_label,
      userId: row.user_id,
    })),
    nextCursor: rows!.length > input.limit && last ? encodeCursor(last.occurred_at, last.id) : null,
  };
}
