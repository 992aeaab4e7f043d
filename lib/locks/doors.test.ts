import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { revokeKey } from '../keys/revoke-key';
import { programKeyOnLock, removeKeyFromLock, RetryableProviderError } from './sync-provider';
import { setProviderSecret } from '../secrets/provider-secrets';
import { fakeDevice, fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { AppError } from '../errors';
import { addRoomLock, listLockDetails, setLockProvider, syncLocks } from './locks';
import { reconcileLock } from './reconcile';
import { registerLockProvider } from './tenant-provider';
import { routeHandler } from '../api/router';

const listLocksRoute = routeHandler('GET', '/api/v1/locks');

let admin: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  fake = fakeLockProvider({ devices: [fakeDevice('room-101'), fakeDevice('room-102'), fakeDevice('entrance')] });
  registerLockProvider('seam', () => fake.provider);
});

/** A tenant on the fake "Seam" with two rooms: each has its own lock, and both share the main entrance. */
async function tenantWithDoors() {
  const tenant = await tenantOnProvider({ provider: 'seam', rooms: 2 });
  const { tenantId, roomIds, lock } = tenant;
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: lock('room-101'), actor: TEST_ACTOR });
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: lock('entrance'), role: 'entrance', actor: TEST_ACTOR });
  await addRoomLock({ tenantId, roomId: roomIds[1]!, lockId: lock('room-102'), actor: TEST_ACTOR });
  await addRoomLock({ tenantId, roomId: roomIds[1]!, lockId: lock('entrance'), role: 'entrance', actor: TEST_ACTOR });
  return { ...tenant, lock };
}

async function keyOf(reservationId: string) {
  const { rows } = await admin.query(
    `select id, status, vendor_sync, pin from access_keys where reservation_id = $1 order by created_at desc limit 1`,
    [reservationId],
  );
  return rows[0];
}

async function doorsOf(keyId: string) {
  const { rows } = await admin.query(
    `select l.device_id, c.state::text, c.code_id, c.error from key_lock_codes c join locks l on l.id = c.lock_id
      where c.key_id = $1 order by l.device_id`,
    [keyId],
  );
  return rows as { device_id: string; state: string; code_id: string | null; error: string | null }[];
}

const attempt = (tenantId: string, keyId: string, n: number) => ({ tenantId, keyId, attempt: n, maxAttempts: 8 });

describe('locks-sync', () => {
  it('imports the provider’s devices once, however often it runs, and refreshes what changed', async () => {
    const { tenantId } = await tenantWithDoors();
    fake.state.devices = [
      fakeDevice('room-101', { name: 'Room 101 door', batteryLevel: 9, online: false }),
      ...fake.state.devices.slice(1),
    ];
    const again = await syncLocks({ tenantId, actor: TEST_ACTOR });
    expect(again.imported).toBe(0);
    expect(again.locks).toHaveLength(3);
    expect(again.locks.find((l) => l.deviceId === 'room-101')).toMatchObject({
      name: 'Room 101 door',
      batteryLevel: 9,
      online: false,
      provider: 'seam',
    });
    const { rows } = await admin.query(`select count(*)::int as n from locks where tenant_id = $1`, [tenantId]);
    expect(rows[0].n).toBe(3);
  });

  it('refuses a tenant whose provider has no credentials, writing nothing', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    await setLockProvider({ tenantId, provider: 'seam', actor: TEST_ACTOR });
    await expect(syncLocks({ tenantId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'unavailable',
      details: { providerCode: 'seam_not_configured' },
    });
    const { rows } = await admin.query(`select count(*)::int as n from locks where tenant_id = $1`, [tenantId]);
    expect(rows[0].n).toBe(0);
  });
});

describe('a stay’s code on every door', () => {
  it('is synced only when every door’s provider confirmed it, and removed from every door when it ends', async () => {
    const { tenantId, roomIds } = await tenantWithDoors();
    fake.state.acceptAs = 'setting'; // Seam takes a code and confirms it later
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const key = await keyOf(reservationId);
    expect((await doorsOf(key.id)).map((d) => [d.device_id, d.state])).toEqual([
      ['entrance', 'pending'],
      ['room-101', 'pending'],
    ]);

    await expect(programKeyOnLock(attempt(tenantId, key.id, 1))).rejects.toBeInstanceOf(RetryableProviderError);
    let doors = await doorsOf(key.id);
    expect(doors.map((d) => d.state)).toEqual(['setting', 'setting']);
    expect((await keyOf(reservationId)).vendor_sync).toBe('pending');

    fake.settle(doors[1]!.code_id!, 'set');
    await expect(programKeyOnLock(attempt(tenantId, key.id, 2))).rejects.toBeInstanceOf(RetryableProviderError);
    expect((await doorsOf(key.id)).map((d) => d.state)).toEqual(['setting', 'set']);
    expect((await keyOf(reservationId)).vendor_sync).toBe('pending');

    fake.settle(doors[0]!.code_id!, 'set');
    await programKeyOnLock(attempt(tenantId, key.id, 3));
    expect((await doorsOf(key.id)).map((d) => d.state)).toEqual(['set', 'set']);
    expect((await keyOf(reservationId)).vendor_sync).toBe('synced');
    expect(fake.calls.filter((c) => c.method === 'programCode')).toHaveLength(2);

    await revokeKey({ tenantId, keyId: key.id, reason: 'cancelled', actor: TEST_ACTOR });
    doors = await doorsOf(key.id);
    expect(doors.map((d) => d.state)).toEqual(['removing', 'removing']);
    expect((await keyOf(reservationId)).vendor_sync).toBe('pending');
    await removeKeyFromLock(attempt(tenantId, key.id, 1));
    expect((await doorsOf(key.id)).map((d) => d.state)).toEqual(['removed', 'removed']);
    expect((await keyOf(reservationId)).vendor_sync).toBe('synced');
    expect(fake.codes.size).toBe(0);
  });

  it('fails the key when one door refuses the code for good, on one incident of that lock', async () => {
    const { tenantId, roomIds, lock } = await tenantWithDoors();
    fake.state.failing.set('entrance', { code: 'no_space_for_access_code_on_device', retryable: false });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const key = await keyOf(reservationId);
    await programKeyOnLock(attempt(tenantId, key.id, 1));
    expect((await doorsOf(key.id)).map((d) => [d.device_id, d.state, d.error])).toEqual([
      ['entrance', 'failed', 'no_space_for_access_code_on_device'],
      ['room-101', 'set', null],
    ]);
    expect((await keyOf(reservationId)).vendor_sync).toBe('failed');
    const { rows } = await admin.query(
      `select condition_key, kind from incidents where tenant_id = $1 and resolved_at is null`,
      [tenantId],
    );
    expect(rows).toEqual([{ condition_key: `lock_program_failed:${lock('entrance')}`, kind: 'lock_program_failed' }]);
  });

  it('waits for a removal the provider confirms later, and never calls it removed before', async () => {
    const { tenantId, roomIds } = await tenantWithDoors();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[1]! });
    const key = await keyOf(reservationId);
    await programKeyOnLock(attempt(tenantId, key.id, 1));
    fake.state.removeLater = true;
    await revokeKey({ tenantId, keyId: key.id, reason: 'cancelled', actor: TEST_ACTOR });
    await expect(removeKeyFromLock(attempt(tenantId, key.id, 1))).rejects.toBeInstanceOf(RetryableProviderError);
    const doors = await doorsOf(key.id);
    expect(doors.map((d) => d.state)).toEqual(['removing', 'removing']);
    for (const door of doors) fake.settle(door.code_id!, 'absent');
    await removeKeyFromLock(attempt(tenantId, key.id, 2));
    expect((await doorsOf(key.id)).map((d) => d.state)).toEqual(['removed', 'removed']);
    expect((await keyOf(reservationId)).vendor_sync).toBe('synced');
  });

  it('marks a removal that never succeeds remove_failed, with a critical incident, on the last attempt', async () => {
    const { tenantId, roomIds } = await tenantWithDoors();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[1]! });
    const key = await keyOf(reservationId);
    await programKeyOnLock(attempt(tenantId, key.id, 1));
    await revokeKey({ tenantId, keyId: key.id, reason: 'cancelled', actor: TEST_ACTOR });
    fake.state.failing.set('room-102', { code: 'timeout', retryable: true });
    await removeKeyFromLock({ tenantId, keyId: key.id, attempt: 8, maxAttempts: 8 });
    expect((await doorsOf(key.id)).map((d) => [d.device_id, d.state])).toEqual([
      ['entrance', 'removed'],
      ['room-102', 'remove_failed'],
    ]);
    expect((await keyOf(reservationId)).vendor_sync).toBe('failed');
    const { rows } = await admin.query(
      `select severity from incidents where tenant_id = $1 and kind = 'lock_remove_failed' and resolved_at is null`,
      [tenantId],
    );
    expect(rows).toEqual([{ severity: 'critical' }]);
  });

  it('holds one live PIN per lock across the rooms that share it (23505), also between concurrent writers', async () => {
    const { tenantId, roomIds, lock } = await tenantWithDoors();
    const first = await keyOf((await bookRoom({ tenantId, roomId: roomIds[0]! })).reservationId);
    const second = await keyOf((await bookRoom({ tenantId, roomId: roomIds[1]! })).reservationId);
    expect(first.pin).not.toBe(second.pin);
    // Room 102's key takes room 101's PIN (allowed per room): it may not then reach room 101's own lock.
    // (PINs never change: the identity trigger is set aside for this one forged row.)
    await admin.query(`set session_replication_role = replica`);
    await admin.query(`update access_keys set pin = $1 where id = $2`, [first.pin, second.id]);
    await admin.query(`set session_replication_role = origin`);
    const clash = admin.query(`insert into key_lock_codes (tenant_id, key_id, lock_id) values ($1, $2, $3)`, [
      tenantId,
      second.id,
      lock('room-101'),
    ]);
    await expect(clash).rejects.toMatchObject({ code: '23505', constraint: 'key_lock_codes_one_live_pin_per_lock' });

    // Two writers at once, each adding a door with that PIN to the same free lock: one wins.
    const [a, b] = [await adminClient(), await adminClient()];
    try {
      const lone = (await syncLocks({ tenantId, actor: TEST_ACTOR })).locks[0]!.id;
      await a.query(`delete from key_lock_codes where lock_id = $1`, [lone]);
      await Promise.all([a.query('begin'), b.query('begin')]);
      const insert = (client: pg.Client, keyId: string) =>
        client
          .query(`insert into key_lock_codes (tenant_id, key_id, lock_id) values ($1, $2, $3)`, [tenantId, keyId, lone])
          .then(() => 'ok')
          .catch((e: { code?: string }) => e.code);
      expect(await insert(a, first.id)).toBe('ok'); // not committed yet
      const second_ = insert(b, second.id);
      const early = await Promise.race([second_, new Promise((r) => setTimeout(() => r('blocked'), 300))]);
      expect(early).toBe('blocked'); // the second writer waits for the first to finish
      await a.query('commit');
      expect(await second_).toBe('23505');
      await b.query('rollback');
    } finally {
      await a.query('rollback').catch(() => undefined);
      await b.query('rollback').catch(() => undefined);
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('says an offline code is still valid on the lock until its end, instead of pretending to remove it', async () => {
    const { tenantId, roomIds } = await tenantWithDoors();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const key = await keyOf(reservationId);
    await programKeyOnLock(attempt(tenantId, key.id, 1));
    await admin.query(
      `update key_lock_codes set offline = true where key_id = $1 and lock_id in (select id from locks where device_id = 'room-101')`,
      [key.id],
    );
    await revokeKey({ tenantId, keyId: key.id, reason: 'cancelled', actor: TEST_ACTOR });
    await removeKeyFromLock(attempt(tenantId, key.id, 1));
    expect((await doorsOf(key.id)).map((d) => [d.device_id, d.state])).toEqual([
      ['entrance', 'removed'],
      ['room-101', 'valid_until_end'],
    ]);
    expect(fake.calls.filter((c) => c.method === 'removeCode').map((c) => c.deviceId)).toEqual(['entrance']);
  });
});

describe('room-lock-add', () => {
  it('sends a lock added to a room to the keys already live there', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1, lockDevices: false });
    await setLockProvider({ tenantId, provider: 'seam', actor: TEST_ACTOR });
    await setProviderSecret({ tenantId, provider: 'seam', value: `seam_test_key_${tenantId}`, actor: TEST_ACTOR });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const key = await keyOf(reservationId);
    expect(await doorsOf(key.id)).toEqual([]);
    const { locks } = await syncLocks({ tenantId, actor: TEST_ACTOR });
    await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: locks[0]!.id, actor: TEST_ACTOR });
    expect((await doorsOf(key.id)).map((d) => d.state)).toEqual(['pending']);
    const jobs = await admin.query(
      `select count(*)::int as n from graphile_worker._private_jobs where payload->>'keyId' = $1`,
      [key.id],
    );
    expect(jobs.rows[0].n).toBeGreaterThanOrEqual(2); // the first program job and the new door's
    await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: locks[0]!.id, actor: TEST_ACTOR }); // repeatable
    expect(await doorsOf(key.id)).toHaveLength(1);
  });

  it('refuses another tenant’s lock or room, writing nothing', async () => {
    const mine = await tenantWithDoors();
    const theirs = await tenantWithDoors();
    const attempts = [
      addRoomLock({
        tenantId: mine.tenantId,
        roomId: mine.roomIds[0]!,
        lockId: theirs.lock('room-101'),
        actor: TEST_ACTOR,
      }),
      addRoomLock({
        tenantId: mine.tenantId,
        roomId: theirs.roomIds[0]!,
        lockId: mine.lock('room-101'),
        actor: TEST_ACTOR,
      }),
    ];
    for (const attemptToAdd of attempts) {
      const error = await attemptToAdd.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('not_found');
    }
    const { rows } = await admin.query(
      `select count(*)::int as n from room_locks where tenant_id = $1 or tenant_id = $2`,
      [mine.tenantId, theirs.tenantId],
    );
    expect(rows[0].n).toBe(8);
  });
});

describe('GET /api/v1/locks', () => {
  it('lists the key’s tenant’s locks with their rooms, and none of another tenant’s', async () => {
    const mine = await tenantWithDoors();
    await tenantWithDoors();
    const { key } = await createApiKey({ tenantId: mine.tenantId, name: 'pms', actor: TEST_ACTOR });
    const response = await listLocksRoute(
      new Request('http://test/api/v1/locks', { headers: { authorization: `Bearer ${key}` } }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string; deviceId: string; roomIds: string[] }[] };
    expect(body.data.map((l) => l.deviceId).sort()).toEqual(['entrance', 'room-101', 'room-102']);
    expect(body.data.find((l) => l.deviceId === 'entrance')!.roomIds.sort()).toEqual([...mine.roomIds].sort());
    expect(
      body.data.every((l) => [mine.lock('entrance'), mine.lock('room-101'), mine.lock('room-102')].includes(l.id)),
    ).toBe(true);
  });
});

describe('the Locks page’s view', () => {
  it('shows each lock’s rooms and codes by our records and by the provider’s, never a PIN, and only this tenant’s', async () => {
    const { tenantId, roomIds, lock } = await tenantWithDoors();
    const other = await tenantWithDoors();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Aiko Tanaka' });
    const key = await keyOf(reservationId);
    await programKeyOnLock(attempt(tenantId, key.id, 1));
    fake.addForeignCode('entrance', '424242');
    await reconcileLock({ tenantId, lockId: lock('entrance') });
    const details = await listLockDetails({ tenantId });
    expect(details.map((d) => d.deviceId)).toEqual(['entrance', 'room-101', 'room-102']);
    const entrance = details.find((d) => d.deviceId === 'entrance')!;
    expect(entrance.rooms.map((r) => [r.label, r.role])).toEqual(
      expect.arrayContaining([
        ['101', 'entrance'],
        ['102', 'entrance'],
      ]),
    );
    expect(entrance.ours).toMatchObject([
      { keyId: key.id, guestDisplay: 'Aiko Tanaka', state: 'set', roomLabel: '101' },
    ]);
    expect(entrance.theirs!.map((c) => c.ours).sort()).toEqual([false, true]);
    expect(entrance.incidents.map((i) => i.kind)).toEqual(['lock_drift']);
    expect(JSON.stringify(details)).not.toContain(key.pin);
    expect(JSON.stringify(details)).not.toContain('424242');
    expect(details.some((d) => [other.lock('entrance'), other.lock('room-101')].includes(d.id))).toBe(false);

    const { rows } = await admin.query(
      `select action, metadata->>'deviceId' as device from audit_events where subject_id = $1 and action like 'key.door_%' order by 2`,
      [key.id],
    );
    expect(rows).toEqual([
      { action: 'key.door_set', device: 'entrance' },
      { action: 'key.door_set', device: 'room-101' },
    ]);
  });
});
