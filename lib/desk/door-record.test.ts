import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { recordDoorEntry, type EntryKind, type EntryMethod } from '../locks/door-entries';
import { createStaffUser } from '../staff/create-staff-user';
import { completeCheckIn } from '../stays/complete-check-in';
import { roomDoorEntries, stayDoorEntries } from './door-record';

// The door record as the desk reads it: a stay's openings for its timeline (its keys anywhere, its room's own door
// while it holds the room, never the other guests at a shared entrance), and a room's entries page by page, each
// naming the door, the key's kind and the person of a remote unlock.
let admin: pg.Client;
let tenantId: string;
let roomA: string;
let roomB: string;
/** The rooms' own doors (simulator devices) and their shared entrance (a Seam lock). */
const doors = {
  a: { lockId: '', deviceId: '' },
  b: { lockId: '', deviceId: '' },
  entrance: { lockId: '', deviceId: '' },
};
let stayA: { reservationId: string; keyId: string };
let stayB: { reservationId: string; keyId: string };
let desk: { id: string; name: string };

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

/** Gives the key a provider code id on the lock, as the worker does once the code is set. */
async function codeOn(keyId: string, lockId: string): Promise<string> {
  const codeId = randomUUID();
  await admin.query(
    `update key_lock_codes set code_id = $3, state = 'set' where tenant_id = $1 and key_id = $2 and lock_id = $4`,
    [tenantId, keyId, codeId, lockId],
  );
  return codeId;
}

async function record(
  door: keyof typeof doors,
  at: Date,
  method: EntryMethod,
  options: { codeId?: string; kind?: EntryKind; actionId?: string } = {},
): Promise<string> {
  const entry = await recordDoorEntry({
    tenantId,
    provider: door === 'entrance' ? 'seam' : 'simulator',
    eventId: randomUUID(),
    deviceId: doors[door].deviceId,
    codeId: options.codeId ?? null,
    kind: options.kind ?? 'unlocked',
    method,
    occurredAt: at,
    actionId: options.actionId ?? null,
  });
  return entry!.entryId;
}

const named: Record<string, string> = {};

beforeAll(async () => {
  admin = await adminClient();
  const tenant = await createBookableTenant({ rooms: 2, name: 'Door record' });
  tenantId = tenant.tenantId;
  [roomA, roomB] = tenant.roomIds as [string, string];
  const own = await admin.query<{ room_id: string; lock_id: string; device_id: string }>(
    `select d.room_id, l.id as lock_id, l.device_id from room_locks d join locks l on l.tenant_id = d.tenant_id and l.id = d.lock_id
      where d.tenant_id = $1`,
    [tenantId],
  );
  for (const row of own.rows)
    doors[row.room_id === roomA ? 'a' : 'b'] = { lockId: row.lock_id, deviceId: row.device_id };
  // The building's entrance, a door of both rooms (before the stays, so their keys go on it too).
  doors.entrance.deviceId = randomUUID();
  doors.entrance.lockId = (
    await admin.query<{ id: string }>(
      `with l as (insert into locks (tenant_id, provider, account, device_id, name) values ($1, 'seam', $3, $2, 'Entrance') returning id)
       insert into room_locks (tenant_id, room_id, lock_id, role)
       select $1, r, id, 'entrance' from l, unnest($4::uuid[]) r returning lock_id as id`,
      [tenantId, doors.entrance.deviceId, `acct:${randomBytes(32).toString('hex')}`, [roomA, roomB]],
    )
  ).rows[0]!.id;
  await admin.query(`update locks set name = 'Room 101 door' where tenant_id = $1 and id = $2`, [
    tenantId,
    doors.a.lockId,
  ]);
  const stay = async (roomId: string, guestName: string) => {
    const booked = await bookRoom({ tenantId, roomId, startsInHours: -2, guestName });
    const checkIn = await completeCheckIn({ tenantId, reservationId: booked.reservationId, actor: TEST_ACTOR });
    return { reservationId: booked.reservationId, keyId: checkIn.key.id };
  };
  stayA = await stay(roomA, 'Aiko Mori');
  stayB = await stay(roomB, 'Ben Cole');
  const tag = randomBytes(3).toString('hex');
  desk = {
    ...(await createStaffUser({
      tenantId,
      email: `desk-${tag}@example.com`,
      password: `pw-${tag}-desk`,
      role: 'front_desk',
      name: 'Desk Sato',
    })),
    name: 'Desk Sato',
  };

  const codeA = await codeOn(stayA.keyId, doors.a.lockId);
  const codeAEntrance = await codeOn(stayA.keyId, doors.entrance.lockId);
  const codeBEntrance = await codeOn(stayB.keyId, doors.entrance.lockId);
  // Before the stay began (its start two hours ago): a turn of the key that is not the stay's.
  named.before = await record('a', minutesAgo(150), 'manual');
  named.aEntrance = await record('entrance', minutesAgo(90), 'code', { codeId: codeAEntrance });
  named.bEntrance = await record('entrance', minutesAgo(80), 'code', { codeId: codeBEntrance });
  named.aDoor = await record('a', minutesAgo(79), 'code', { codeId: codeA });
  named.aLocked = await record('a', minutesAgo(78), 'code', { codeId: codeA, kind: 'locked' });
  // The desk's remote unlock of room A's door (as remoteUnlock writes it), then the opening it caused.
  await admin.query(
    `insert into remote_unlocks (tenant_id, lock_id, user_id, actor_type, actor_id, actor_label, reason, status, action_id)
     values ($1, $2, $3::uuid, 'user', $3::text, $4, 'Guest locked out', 'done', 'action-1')`,
    [tenantId, doors.a.lockId, desk.id, desk.name],
  );
  named.remote = await record('a', minutesAgo(30), 'app', { actionId: 'action-1' });
  named.entranceManual = await record('entrance', minutesAgo(20), 'manual');
  named.bDoor = await record('b', minutesAgo(10), 'unknown');
});
afterAll(async () => {
  await admin.end();
});

describe('a stay’s door openings (the reservation’s timeline)', () => {
  it('lists its keys’ openings anywhere and its own door’s other openings while it holds the room, oldest first', async () => {
    const entries = await stayDoorEntries({ tenantId, reservationId: stayA.reservationId });
    expect(entries.map((e) => e.id)).toEqual([named.aEntrance, named.aDoor, named.remote]);
    expect(entries).toMatchObject([
      { lockName: 'Entrance', method: 'code', keyKind: 'guest', reservationId: stayA.reservationId, person: null },
      { lockName: 'Room 101 door', method: 'code', keyId: stayA.keyId, roomLabel: '101', kind: 'unlocked' },
      // The desk's remote unlock names the person who asked for it.
      {
        lockName: 'Room 101 door',
        method: 'app',
        keyId: null,
        userId: desk.id,
        person: desk.name,
        reason: 'Guest locked out',
      },
    ]);
  });

  it('leaves out the other guests at a shared entrance, and another tenant reads nothing', async () => {
    const entries = await stayDoorEntries({ tenantId, reservationId: stayB.reservationId });
    // Room B's own door's opening (no key) while B holds it; the entrance only by B's own code.
    expect(entries.map((e) => e.id)).toEqual([named.bEntrance, named.bDoor]);
    const other = await createBookableTenant({ rooms: 1 });
    expect(await stayDoorEntries({ tenantId: other.tenantId, reservationId: stayA.reservationId })).toEqual([]);
  });
});

describe('a room’s door record', () => {
  it('lists every entry on the room’s doors, newest first, page by page, each once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await roomDoorEntries({ tenantId, roomId: roomA, limit: 2, cursor });
      seen.push(...page.data.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual([
      named.entranceManual,
      named.remote,
      named.aLocked,
      named.aDoor,
      named.bEntrance,
      named.aEntrance,
      named.before,
    ]);
    expect(pages).toBe(4);
    const first = await roomDoorEntries({ tenantId, roomId: roomA, limit: 10 });
    expect(first.data.find((e) => e.id === named.bEntrance)).toMatchObject({
      keyKind: 'guest',
      reservationId: stayB.reservationId,
      roomLabel: '102',
    });
    expect(first.data.find((e) => e.id === named.aLocked)).toMatchObject({ kind: 'locked' });
  });

  it('is empty for a room without entries and for another tenant’s room', async () => {
    const other = await createBookableTenant({ rooms: 1 });
    expect(await roomDoorEntries({ tenantId: other.tenantId, roomId: other.roomIds[0]!, limit: 5 })).toEqual({
      data: [],
      nextCursor: null,
    });
    expect((await roomDoorEntries({ tenantId: other.tenantId, roomId: roomA, limit: 5 })).data).toEqual([]);
  });
});
