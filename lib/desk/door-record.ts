import type { KeyKind } from '../db/generated/enums';
import { runStatements, sqlLiteral, statement, type Statement } from '../db/tx';
import type { EntryKind, EntryMethod } from '../locks/door-entries';
import { decodeCursor, encodeCursor } from '../paging/cursor';

/** Most openings one stay's timeline shows (a safety net, like the timeline's audit rows). */
export const STAY_ENTRIES_LIMIT = 200;

/** One door entry as staff read it: which door, how, and who — named now, never copied into the entry. */
export type EntryView = {
  id: string;
  occurredAt: Date;
  kind: EntryKind;
  method: EntryMethod;
  lockId: string;
  lockName: string;
  /** The key whose code opened it, and what kind of key (a guest's, a staff code, a backup code). */
  keyId: string | null;
  keyKind: KeyKind | null;
  /** The stay of that key, and its room's label at booking time. */
  reservationId: string | null;
  roomLabel: string | null;
  /** The remote unlock that caused it; who asked for it (a person at the desk, an integration) as the request named them, and why. */
  remoteUnlockId: string | null;
  userId: string | null;
  person: string | null;
  reason: string | null;
};

type EntryRow = {
  id: string;
  occurred_at: Date;
  kind: EntryKind;
  method: EntryMethod;
  lock_id: string;
  lock_name: string;
  key_id: string | null;
  key_kind: KeyKind | null;
  reservation_id: string | null;
  room_label: string | null;
  remote_unlock_id: string | null;
  user_id: string | null;
  person: string | null;
  reason: string | null;
};

const toView = (row: EntryRow): EntryView => ({
  id: row.id,
  occurredAt: row.occurred_at,
  kind: row.kind,
  method: row.method,
  lockId: row.lock_id,
  lockName: row.lock_name,
  keyId: row.key_id,
  keyKind: row.key_kind,
  reservationId: row.reservation_id,
  roomLabel: row.room_label,
  remoteUnlockId: row.remote_unlock_id,
  userId: row.user_id,
  person: row.person,
  reason: row.reason,
});

/**
 * The columns of an entry as staff read it, from `door_entries e` of `tenant`: the lock's name, the key's kind and
 * stay, and the remote unlock that caused it — who asked, as the audit trail snapshotted them, and why.
 */
function entryColumns(tenant: string): string {
  return `e.id, e.occurred_at, e.kind, e.method, e.lock_id, l.name as lock_name, e.key_id, k.kind::text as key_kind,
          k.reservation_id, r.room_label_snapshot as room_label, e.remote_unlock_id, e.user_id,
          u.actor_label as person, u.reason
     from door_entries e
     join locks l on l.tenant_id = e.tenant_id and l.id = e.lock_id
     left join access_keys k on k.tenant_id = e.tenant_id and k.id = e.key_id
     left join reservations r on r.tenant_id = k.tenant_id and r.id = k.reservation_id
     left join remote_unlocks u on u.tenant_id = e.tenant_id and u.id = e.remote_unlock_id
    where e.tenant_id = ${tenant}`;
}

/**
 * The door openings of one stay, oldest first: every opening by one of its keys (on any door), and every other
 * opening of its room's own door while the stay held the room (from its start, or its check-in when earlier, to its
 * end) — a remote unlock from the desk, a staff code, a turn of the key — but never one by another stay's key. Shared
 * doors (an entrance) count only with the stay's own keys, so the other guests' comings and goings stay out.
 */
export function stayDoorEntriesStatement({
  tenantId,
  reservationId,
  limit = STAY_ENTRIES_LIMIT,
}: {
  tenantId: string;
  reservationId: string;
  limit?: number;
}): Statement<EntryView[]> {
  const tenant = sqlLiteral(tenantId, 'uuid');
  const stay = sqlLiteral(reservationId, 'uuid');
  // Two index ranges (the stay's keys; the room door's time range) joined by `union`, each read once.
  return statement<EntryView>(
    `with s as (
       select r.room_id, least(r.starts_at, coalesce(c.created_at, r.starts_at)) as from_at, r.ends_at as to_at
         from reservations r
         left join check_ins c on c.tenant_id = r.tenant_id and c.reservation_id = r.id
        where r.tenant_id = ${tenant} and r.id = ${stay}
     ), ids as (
       select e.id from door_entries e
        where e.tenant_id = ${tenant} and e.kind = 'unlocked'
          and e.key_id in (select k.id from access_keys k where k.tenant_id = ${tenant} and k.reservation_id = ${stay})
       union
       select e.id from door_entries e, s
        where e.tenant_id = ${tenant} and e.kind = 'unlocked'
          and e.occurred_at >= s.from_at and e.occurred_at < s.to_at
          and e.lock_id in (select d.lock_id from room_locks d
                             where d.tenant_id = ${tenant} and d.room_id = s.room_id and d.role = 'room')
          and (e.key_id is null or not exists (select 1 from access_keys o
                where o.tenant_id = e.tenant_id and o.id = e.key_id and o.reservation_id <> ${stay}))
     )
     select ${entryColumns(tenant)} and e.id in (select id from ids)
      order by e.occurred_at, e.id
      limit ${Math.trunc(limit)}`,
    (row) => toView(row as EntryRow),
  );
}

/** `stayDoorEntriesStatement` in one round trip, as the tenant's staff. */
export async function stayDoorEntries(input: {
  tenantId: string;
  userId?: string;
  reservationId: string;
  limit?: number;
}): Promise<EntryView[]> {
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId, userId: input.userId }, [
    stayDoorEntriesStatement(input),
  ]);
  return rows;
}

/**
 * The entries on one room's doors (its own door, and a shared entrance or other door it has now), openings and
 * lockings, newest first, one keyset page at a time: what the room's page shows as its door record.
 */
export async function roomDoorEntries(input: {
  tenantId: string;
  userId?: string;
  roomId: string;
  limit: number;
  cursor?: string;
}): Promise<{ data: EntryView[]; nextCursor: string | null }> {
  const tenant = sqlLiteral(input.tenantId, 'uuid');
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId, userId: input.userId }, [
    statement<EntryView>(
      `select ${entryColumns(tenant)}
          and e.lock_id in (select d.lock_id from room_locks d
                             where d.tenant_id = ${tenant} and d.room_id = ${sqlLiteral(input.roomId, 'uuid')})
          ${after ? `and (e.occurred_at, e.id) < (${sqlLiteral(after.at, 'timestamptz')}, ${sqlLiteral(after.id, 'uuid')})` : ''}
        order by e.occurred_at desc, e.id desc
        limit ${Math.trunc(input.limit) + 1}`,
      (row) => toView(row as EntryRow),
    ),
  ]);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page,
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.occurredAt, last.id) : null,
  };
}
