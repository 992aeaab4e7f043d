import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { programKeyOnLock } from './sync-provider';
import { setProviderSecret } from '../secrets/provider-secrets';
import { createRoom } from '../rooms/create-room';
import { fakeDevice, fakeLockProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { startLockSimulator, type LockSimulator } from '../../tooling/testing/lock-simulator';
import { setInstallLockProviderForTests } from './install-provider';
import { addRoomLock, setLockProvider, syncLocks } from './locks';
import { reconcileLock } from './reconcile';
import { registerLockProvider } from './tenant-provider';
import { routeHandler } from '../api/router';

const listLocksRoute = routeHandler('GET', '/api/v1/locks');

// Issue 28, item 1: a provider device (provider, account, device id) belongs to at most one tenant.
// On the install's own account (the simulator here, as `npm start` runs it) a tenant sees only the
// devices the operator assigned to it; a device another tenant holds is never imported, listed or
// attached, and no code of another tenant ever reaches it.

let admin: pg.Client;
let sim: LockSimulator;
// Device ids the simulator lists from the start: TTLock lock ids, unique to this file's run.
const base = 300_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const THEIRS = String(base + 1);
const SPARE = String(base + 2);
const MINE = String(base + 3);
const LISTED = String(base + 4);

beforeAll(async () => {
  admin = await adminClient();
  sim = await startLockSimulator({
    locks: [THEIRS, SPARE, MINE, LISTED].map((id) => ({ lockId: Number(id) })),
    autoCreateLocks: true,
  });
});
afterAll(async () => {
  setInstallLockProviderForTests(null);
  await sim.close();
  await admin.end();
});
beforeEach(() => {
  setInstallLockProviderForTests(sim.provider());
});

let seq = 0;
const fresh = () => String(base + 50 + seq++);

async function locksOf(tenantId: string) {
  const { rows } = await admin.query<{ device_id: string }>(
    `select device_id from locks where tenant_id = $1 order by device_id`,
    [tenantId],
  );
  return rows.map((r) => r.device_id);
}

async function listOverApi(tenantId: string) {
  const { key } = await createApiKey({ tenantId, name: 'pms', actor: TEST_ACTOR });
  const response = await listLocksRoute(
    new Request('http://test/api/v1/locks', { headers: { authorization: `Bearer ${key}` } }),
    { params: Promise.resolve({}) },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { deviceId: string }[] }).data.map((l) => l.deviceId);
}

describe('the install’s lock account', () => {
  it('imports for a tenant only the devices the operator assigned to it — never another tenant’s, never unassigned ones', async () => {
    const a = await createBookableTenant({ rooms: 0 });
    await createRoom({ tenantId: a.tenantId, facilityId: a.facilityId, label: 'A1', lockDeviceRef: THEIRS });
    const b = await createBookableTenant({ rooms: 0 });
    await createRoom({ tenantId: b.tenantId, facilityId: b.facilityId, label: 'B1', lockDeviceRef: MINE });

    const imported = await syncLocks({ tenantId: b.tenantId, actor: TEST_ACTOR });
    expect(imported.imported).toBe(0);
    expect(imported.locks.map((l) => l.deviceId)).toEqual([MINE]);
    expect(await locksOf(b.tenantId)).toEqual([MINE]);
    expect(await listOverApi(b.tenantId)).toEqual([MINE]);
    // The audit row counts only what the tenant may see, not the install's devices.
    const { rows } = await admin.query(
      `select metadata from audit_events where tenant_id = $1 and action = 'locks.synced'`,
      [b.tenantId],
    );
    expect(rows.map((r) => r.metadata)).toEqual([{ provider: 'simulator', devices: 1, imported: 0 }]);
    // A's device stays A's alone.
    expect(await locksOf(a.tenantId)).toEqual([THEIRS]);
  });

  it('refuses in the database a second tenant’s lock on a device another tenant holds (UL001)', async () => {
    const a = await createBookableTenant({ rooms: 0 });
    const device = fresh();
    await createRoom({ tenantId: a.tenantId, facilityId: a.facilityId, label: 'A1', lockDeviceRef: device });
    const b = await createBookableTenant({ rooms: 0 });
    const insert = admin.query(
      `insert into locks (tenant_id, provider, account, device_id, name) values ($1, 'simulator', 'install', $2, 'x')`,
      [b.tenantId, device],
    );
    await expect(insert).rejects.toMatchObject({ code: 'UL001' });
    expect(await locksOf(b.tenantId)).toEqual([]);
  });

  it('leaves exactly one holder when two transactions claim one device at the same time', async () => {
    const a = await createBookableTenant({ rooms: 0 });
    const b = await createBookableTenant({ rooms: 0 });
    const device = fresh();
    const [first, second] = [new pg.Client(process.env.TEST_ADMIN_URL), new pg.Client(process.env.TEST_ADMIN_URL)];
    await Promise.all([first.connect(), second.connect()]);
    try {
      await first.query('begin');
      await second.query('begin');
      const claim = (client: pg.Client, tenantId: string) =>
        client.query(
          `insert into locks (tenant_id, provider, account, device_id, name) values ($1, 'simulator', 'install', $2, 'x')`,
          [tenantId, device],
        );
      await claim(first, a.tenantId);
      // The second waits for the first's uncommitted claim, then is refused once it commits.
      const waiting = claim(second, b.tenantId).then(
        () => 'claimed',
        (error: { code?: string }) => error.code,
      );
      const early = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
      expect(early).toBe('waiting');
      await first.query('commit');
      expect(await waiting).toBe('UL001');
      await second.query('rollback');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    const { rows } = await admin.query(
      `select tenant_id from lock_devices where provider = 'simulator' and account = 'install' and device_id = $1`,
      [device],
    );
    expect(rows).toEqual([{ tenant_id: a.tenantId }]);
  });

  it('gives a device to one of two tenants whose rooms name it at the same moment; the other is refused', async () => {
    const a = await createBookableTenant({ rooms: 0 });
    const b = await createBookableTenant({ rooms: 0 });
    const device = fresh();
    const results = await Promise.allSettled(
      [a, b].map((t) =>
        createRoom({ tenantId: t.tenantId, facilityId: t.facilityId, label: 'R', lockDeviceRef: device }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'conflict' });
    const holders = [...(await locksOf(a.tenantId)), ...(await locksOf(b.tenantId))];
    expect(holders).toEqual([device]);
    // The refused tenant's room was not created either: a failed request writes nothing.
    const { rows } = await admin.query(`select count(*)::int as n from rooms where tenant_id = any($1::uuid[])`, [
      [a.tenantId, b.tenantId],
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('never sends another tenant’s code to a device it holds: its import, doors, re-sync and keys stay apart', async () => {
    const a = await createBookableTenant({ rooms: 0 });
    const device = LISTED; // the install's account lists it to anyone who asks
    await createRoom({
      tenantId: a.tenantId,
      facilityId: a.facilityId,
      label: 'A1',
      lockDeviceRef: device,
    });
    const aLock = (await syncLocks({ tenantId: a.tenantId, actor: TEST_ACTOR })).locks[0]!;
    const b = await createBookableTenant({ rooms: 1, lockDevices: false });

    // B imports: A's device is not among B's locks, so B has nothing of it to attach.
    const bLocks = (await syncLocks({ tenantId: b.tenantId, actor: TEST_ACTOR })).locks;
    const stolen = bLocks.find((l) => l.deviceId === device);
    if (stolen)
      await addRoomLock({ tenantId: b.tenantId, roomId: b.roomIds[0]!, lockId: stolen.id, actor: TEST_ACTOR });
    expect(stolen).toBeUndefined();
    // A's lock id means nothing to B: 404, whether attached or re-synced.
    await expect(
      addRoomLock({ tenantId: b.tenantId, roomId: b.roomIds[0]!, lockId: aLock.id, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      reconcileLock({ tenantId: b.tenantId, lockId: aLock.id, retryFailed: true, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });

    // B's stay gets a key; whatever B's doors are, none is A's device.
    const { reservationId } = await bookRoom({ tenantId: b.tenantId, roomId: b.roomIds[0]! });
    const { rows: keys } = await admin.query<{ id: string }>(`select id from access_keys where reservation_id = $1`, [
      reservationId,
    ]);
    await programKeyOnLock({ tenantId: b.tenantId, keyId: keys[0]!.id, attempt: 1, maxAttempts: 8 }).catch(() => null);
    const { rows: doors } = await admin.query(
      `select l.device_id from key_lock_codes c join locks l on l.tenant_id = c.tenant_id and l.id = c.lock_id
        where c.tenant_id = $1`,
      [b.tenantId],
    );
    expect(doors).toEqual([]);
    const onDevice = (await sim.calls()).filter((c) => c.lockId === device && c.endpoint === '/v3/keyboardPwd/add');
    expect(onDevice.map((c) => c.clientRef)).not.toContain(keys[0]!.id);
  });
});

describe('one account that two tenants both entered', () => {
  it('lets each device be imported by one tenant only, when both import at the same time', async () => {
    const fake = fakeLockProvider({ name: 'ttlock', devices: [fakeDevice('5001'), fakeDevice('5002')] });
    registerLockProvider('ttlock', () => fake.provider);
    const shared = JSON.stringify({ clientId: 'shared', clientSecret: 's', username: 'front-office', password: 'p' });
    const tenants = await Promise.all([0, 1].map(() => createBookableTenant({ rooms: 0 })));
    for (const { tenantId } of tenants) {
      await setLockProvider({ tenantId, provider: 'ttlock', actor: TEST_ACTOR });
      await setProviderSecret({ tenantId, provider: 'ttlock', value: shared, actor: TEST_ACTOR });
    }
    await Promise.all(tenants.map(({ tenantId }) => syncLocks({ tenantId, actor: TEST_ACTOR })));
    const held = [...(await locksOf(tenants[0]!.tenantId)), ...(await locksOf(tenants[1]!.tenantId))].sort();
    expect(held).toEqual(['5001', '5002']);
    // Importing again changes nothing: a device held by the other tenant stays the other's.
    await Promise.all(tenants.map(({ tenantId }) => syncLocks({ tenantId, actor: TEST_ACTOR })));
    const again = [...(await locksOf(tenants[0]!.tenantId)), ...(await locksOf(tenants[1]!.tenantId))].sort();
    expect(again).toEqual(['5001', '5002']);
  });
});

describe('new credentials for a tenant’s own provider', () => {
  it('move its locks to the account they reach, and release one whose device another tenant holds there', async () => {
    const fake = fakeLockProvider({ name: 'ttlock', devices: [fakeDevice('6001'), fakeDevice('6002')] });
    registerLockProvider('ttlock', () => fake.provider);
    const account = (username: string) =>
      JSON.stringify({ clientId: 'c', clientSecret: 's', username: `${username}-${base}`, password: 'p' });
    const [a, b] = await Promise.all([0, 1].map(() => createBookableTenant({ rooms: 1, lockDevices: false })));
    for (const [t, user] of [
      [a!, 'first'],
      [b!, 'second'],
    ] as const) {
      await setLockProvider({ tenantId: t.tenantId, provider: 'ttlock', actor: TEST_ACTOR });
      await setProviderSecret({ tenantId: t.tenantId, provider: 'ttlock', value: account(user), actor: TEST_ACTOR });
    }
    const aLocks = (await syncLocks({ tenantId: a!.tenantId, actor: TEST_ACTOR })).locks;
    const door = aLocks.find((l) => l.deviceId === '6001')!;
    await addRoomLock({ tenantId: a!.tenantId, roomId: a!.roomIds[0]!, lockId: door.id, actor: TEST_ACTOR });
    // B, on its own account, holds 6001 there (and only 6001).
    fake.state.devices = [fakeDevice('6001')];
    expect((await syncLocks({ tenantId: b!.tenantId, actor: TEST_ACTOR })).locks.map((l) => l.deviceId)).toEqual([
      '6001',
    ]);

    // A types B's account: 6002 moves to it, 6001 is B's there — A's lock of it is released.
    await setProviderSecret({ tenantId: a!.tenantId, provider: 'ttlock', value: account('second'), actor: TEST_ACTOR });
    const { rows } = await admin.query(
      `select l.device_id, (select count(*)::int from room_locks r where r.tenant_id = l.tenant_id and r.lock_id = l.id) as doors
         from locks l where l.tenant_id = $1 order by l.device_id`,
      [a!.tenantId],
    );
    expect(rows).toEqual([
      { device_id: '6002', doors: 0 },
      { device_id: `released:${door.id}`, doors: 0 },
    ]);
    const released = await admin.query(
      `select metadata from audit_events where tenant_id = $1 and action = 'lock.released'`,
      [a!.tenantId],
    );
    expect(released.rows.map((r) => r.metadata)).toEqual([
      { provider: 'ttlock', deviceId: '6001', reason: 'held_by_another_tenant', doorsRemoved: 1 },
    ]);
    expect(await locksOf(b!.tenantId)).toEqual(['6001']);
  });
});
