import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeDevice, fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { addRoomLock, listLocks } from './locks';
import { removeRoomDoor } from './remove-room-door';
import { replaceRoomLock } from './replace-room-lock';
import { programKeyOnLock, removeKeyFromLock } from './sync-provider';
import { registerLockProvider } from './tenant-provider';

let admin: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  fake = fakeLockProvider({
    devices: [fakeDevice('room-101'), fakeDevice('room-102'), fakeDevice('entrance'), fakeDevice('spare')],
  });
  registerLockProvider('seam', () => fake.provider);
});

/** Two rooms on the fake "Seam": each its own lock, both the main entrance; `spare` is no room's door. */
async function tenantWithDoors() {
  const tenant = await tenantOnProvider({ provider: 'seam', rooms: 2 });
  const { tenantId, roomIds, lock } = tenant;
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: lock('room-101'), actor: TEST_ACTOR });
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: lock('entrance'), role: 'entrance', actor: TEST_ACTOR });
  await addRoomLock({ tenantId, roomId: roomIds[1]!, lockId: lock('room-102'), actor: TEST_ACTOR });
  return tenant;
}

const attempt = (tenantId: string, keyId: string, n = 1) => ({ tenantId, keyId, attempt: n, maxAttempts: 8 });

async function liveKeyOf(reservationId: string) {
  const { rows } = await admin.query(
    `select id, vendor_sync from access_keys where reservation_id = $1 and status in ('pre_issued', 'active')`,
    [reservationId],
  );
  expect(rows).toHaveLength(1);
  return rows[0] as { id: string; vendor_sync: string };
}

async function doorsOf(keyId: string) {
  const { rows } = await admin.query(
    `select l.device_id, c.state::text, c.detached from key_lock_codes c join locks l on l.id = c.lock_id
      where c.key_id = $1 order by l.device_id`,
    [keyId],
  );
  return rows.map((r) => [r.device_id, r.state, r.detached]);
}

async function roomDoors(roomId: string) {
  const { rows } = await admin.query(
    `select l.device_id, rl.role::text from room_locks rl join locks l on l.id = rl.lock_id where rl.room_id = $1 order by 1`,
    [roomId],
  );
  return rows.map((r) => [r.device_id, r.role]);
}

async function audit(tenantId: string, action: string) {
  const { rows } = await admin.query(
    `select subject_id, room_id, metadata from audit_events where tenant_id = $1 and action = $2 order by occurred_at`,
    [tenantId, action],
  );
  return rows;
}

/** What the fake lock holds of one key, by device. */
const onLocks = (keyId: string) =>
  [...fake.codes.values()]
    .filter((c) => c.clientRef === keyId)
    .map((c) => c.deviceId)
    .sort();

describe('removing a door from a room', () => {
  it('takes the live codes off that lock only, keeps the key synced on its other door, and audits it', async () => {
    const { tenantId, roomIds, lock } = await tenantWithDoors();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const key = await liveKeyOf(reservationId);
    await programKeyOnLock(attempt(tenantId, key.id));
    expect(onLocks(key.id)).toEqual(['entrance', 'room-101']);

    const result = await removeRoomDoor({ tenantId, roomId: roomIds[0]!, lockId: lock('entrance'), actor: TEST_ACTOR });
    expect(result).toMatchObject({ keysRemoving: 1, doorsLeft: 1 });
    expect(await roomDoors(roomIds[0]!)).toEqual([['room-101', 'room']]);
    expect(await doorsOf(key.id)).toEqual([
      ['entrance', 'removing', true],
      ['room-101', 'set', false],
    ]);
    // The guest's code still opens the room: the door on its way off does not make the key pending.
    expect((await liveKeyOf(reservationId)).vendor_sync).toBe('synced');
    const { rows: jobs } = await admin.query(
      `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'vendor_remove_key' and j.payload->>'keyId' = $1`,
      [key.id],
    );
    expect(jobs[0].n).toBe(1);

    await removeKeyFromLock(attempt(tenantId, key.id));
    expect(await doorsOf(key.id)).toEqual([
      ['entrance', 'removed', true],
      ['room-101', 'set', false],
    ]);
    expect(onLocks(key.id)).toEqual(['room-101']);
    expect((await liveKeyOf(reservationId)).vendor_sync).toBe('synced');
    expect(await audit(tenantId, 'room.door_removed')).toEqual([
      {
        subject_id: roomIds[0],
        room_id: roomIds[0],
        metadata: { lockId: lock('entrance'), role: 'entrance', keysRemoving: 1, doorsLeft: 1 },
      },
    ]);
    // The lock stays the tenant's, and a key issued now gets the remaining door only.
    expect((await listLocks({ tenantId })).find((l) => l.id === lock('entrance'))?.roomIds).toEqual([]);
  });

  it('refuses the last door of a room with live keys (409 last_door) and writes nothing', async () => {
    const { tenantId, roomIds, lock } = await tenantWithDoors();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[1]! });
    const key = await liveKeyOf(reservationId);
    await expect(
      removeRoomDoor({ tenantId, roomId: roomIds[1]!, lockId: lock('room-102'), actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'conflict', details: { reason: 'last_door', liveKeys: 1 } });
    expect(await roomDoors(roomIds[1]!)).toEqual([['room-102', 'room']]);
    expect(await doorsOf(key.id)).toEqual([['room-102', 'pending', false]]);
    expect(await audit(tenantId, 'room.door_removed')).toEqual([]);
  });

  it('answers not_found for another tenant’s room or lock, and for a lock that is not the room’s door', async () => {
    const mine = await tenantWithDoors();
    const theirs = await tenantOnProvider({ provider: 'seam', rooms: 1 });
    const before = await admin.query(`select count(*)::int as n from room_locks where tenant_id = $1`, [mine.tenantId]);
    for (const attemptArgs of [
      { roomId: theirs.roomIds[0]!, lockId: mine.lock('room-101') },
      { roomId: mine.roomIds[0]!, lockId: theirs.lock('room-101') },
      { roomId: mine.roomIds[0]!, lockId: mine.lock('spare') },
    ])
      await expect(
        removeRoomDoor({ tenantId: mine.tenantId, ...attemptArgs, actor: TEST_ACTOR }),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
    await expect(
      replaceRoomLock({
        tenantId: mine.tenantId,
        roomId: mine.roomIds[0]!,
        oldLockId: mine.lock('room-101'),
        newLockId: theirs.lock('spare'),
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const after = await admin.query(`select count(*)::int as n from room_locks where tenant_id = $1`, [mine.tenantId]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect(await audit(mine.tenantId, 'room.door_removed')).toEqual([]);
    expect(await audit(mine.tenantId, 'room.lock_replaced')).toEqual([]);
    expect(await roomDoors(theirs.roomIds[0]!)).toEqual([]);
  });

  it('never leaves a code on the removed door when a key is issued meanwhile, in either order', async () => {
    const { tenantId, roomIds, lock } = await tenantWithDoors();
    const { reservationId: first } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    // 1. The removal holds the room's door lock; a booking (its pre-issued key) waits, then reads the doors left.
    await admin.query('begin');
    await admin.query(`select app_remove_room_door($1, $2, $3)`, [tenantId, roomIds[0], lock('entrance')]);
    const booking = bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 48 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await admin.query('commit');
    const { reservationId: second } = await booking;
    expect(await doorsOf((await liveKeyOf(second)).id)).toEqual([['room-101', 'pending', false]]);
    expect(await doorsOf((await liveKeyOf(first)).id)).toEqual([
      ['entrance', 'removing', true],
      ['room-101', 'pending', false],
    ]);

    // 2. A staff code is being issued (the room's doors read); the removal waits and then takes it off too.
    await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: lock('spare'), role: 'other', actor: TEST_ACTOR });
    await admin.query('begin');
    const { rows } = await admin.query(
      `select (create_staff_code($1, $2, 'Cleaner', 'housekeeping', now(), now() + interval '2 hours', null,
               'system', 'test', 'test')).id`,
      [tenantId, roomIds[0]],
    );
    const staffKey = rows[0].id as string;
    const removal = removeRoomDoor({ tenantId, roomId: roomIds[0]!, lockId: lock('spare'), actor: TEST_ACTOR });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await admin.query('commit');
    expect(await removal).toMatchObject({ keysRemoving: 3 });
    expect(await doorsOf(staffKey)).toEqual([
      ['room-101', 'pending', false],
      ['spare', 'removing', true],
    ]);
  });
});

describe('replacing a lock', () => {
  it('moves the door to an unassigned lock: every live code onto it, off the old one; the old lock stays listed', async () => {
    const { tenantId, roomIds, lock } = await tenantWithDoors();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[1]! });
    const key = await liveKeyOf(reservationId);
    await programKeyOnLock(attempt(tenantId, key.id));
    expect(onLocks(key.id)).toEqual(['room-102']);

    const result = await replaceRoomLock({
      tenantId,
      roomId: roomIds[1]!,
      oldLockId: lock('room-102'),
      newLockId: lock('spare'),
      actor: TEST_ACTOR,
    });
    expect(result).toMatchObject({ keysSent: 1, keysRemoving: 1, keysSkipped: 0 });
    expect(await roomDoors(roomIds[1]!)).toEqual([['spare', 'room']]);
    expect(await doorsOf(key.id)).toEqual([
      ['room-102', 'removing', true],
      ['spare', 'pending', false],
    ]);
    expect((await liveKeyOf(reservationId)).vendor_sync).toBe('pending');

    // The key's queue runs its program job, then its removal job.
    await programKeyOnLock(attempt(tenantId, key.id));
    await removeKeyFromLock(attempt(tenantId, key.id));
    expect(await doorsOf(key.id)).toEqual([
      ['room-102', 'removed', true],
      ['spare', 'set', false],
    ]);
    expect(onLocks(key.id)).toEqual(['spare']);
    expect((await liveKeyOf(reservationId)).vendor_sync).toBe('synced');
    const locks = await listLocks({ tenantId });
    expect(locks.find((l) => l.id === lock('room-102'))?.roomIds).toEqual([]);
    expect(locks.find((l) => l.id === lock('spare'))?.roomIds).toEqual([roomIds[1]]);
    expect(await audit(tenantId, 'room.lock_replaced')).toEqual([
      {
        subject_id: roomIds[1],
        room_id: roomIds[1],
        metadata: {
          oldLockId: lock('room-102'),
          newLockId: lock('spare'),
          role: 'room',
          keysSent: 1,
          keysRemoving: 1,
          keysSkipped: 0,
        },
      },
    ]);

    // Swapped back: the old lock's row comes back to life rather than being skipped.
    await replaceRoomLock({
      tenantId,
      roomId: roomIds[1]!,
      oldLockId: lock('spare'),
      newLockId: lock('room-102'),
      actor: TEST_ACTOR,
    });
    expect(await doorsOf(key.id)).toEqual([
      ['room-102', 'pending', false],
      ['spare', 'removing', true],
    ]);
  });

  it('refuses a lock that is already a door (409 lock_in_use), writing nothing', async () => {
    const { tenantId, roomIds, lock } = await tenantWithDoors();
    await expect(
      replaceRoomLock({
        tenantId,
        roomId: roomIds[1]!,
        oldLockId: lock('room-102'),
        newLockId: lock('entrance'),
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'conflict', details: { reason: 'lock_in_use' } });
    expect(await roomDoors(roomIds[1]!)).toEqual([['room-102', 'room']]);
  });
});
