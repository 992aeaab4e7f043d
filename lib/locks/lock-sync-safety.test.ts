import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as healthRoute } from '@/app/api/health/route';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { setInstallLockProviderForTests } from './install-provider';
import type { LockProvider, LockResult } from './provider';
import { checkLockProviderHealth } from '../health/check-health';
import { reconcileLock } from './reconcile';
import { revokeKey } from '../keys/revoke-key';
import { programKeyOnLock, removeKeyFromLock } from './sync-provider';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
afterEach(() => {
  setInstallLockProviderForTests(null);
});

/** A lock provider whose every answer is `result`, counting calls. */
function fakeProvider(result: LockResult<unknown>): LockProvider & { calls: string[] } {
  const calls: string[] = [];
  const answer = <T>(name: string, data: T): Promise<LockResult<T>> => {
    calls.push(name);
    return Promise.resolve(result.ok ? { ok: true as const, data } : result);
  };
  return {
    name: 'simulator',
    calls,
    listDevices: () => answer('devices', []),
    programCode: () => answer('program', { codeId: `v-${calls.length}`, state: 'set' as const }),
    removeCode: () => answer('remove', { state: 'absent' as const }),
    getCode: () => answer('get', null),
    listCodes: () => answer('list', []),
    checkHealth: () => answer('health', null),
  };
}

async function keyOf(reservationId: string) {
  const { rows } = await admin.query(
    `select id, status, vendor_sync, vendor_error from access_keys where reservation_id = $1 order by created_at desc limit 1`,
    [reservationId],
  );
  return rows[0];
}

const LAST = { attempt: 8, maxAttempts: 8 };

describe('a room without a lock device', () => {
  it('never gets a key marked synced; the desk sees why, and the guest is not promised a PIN', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ lockDevices: false });
    const vendor = fakeProvider({ ok: true, data: null });
    setInstallLockProviderForTests(vendor);
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const key = await keyOf(reservationId);
    await programKeyOnLock({ tenantId, keyId: key.id, attempt: 1, maxAttempts: 8 });
    expect(await keyOf(reservationId)).toMatchObject({ vendor_sync: 'failed', vendor_error: 'no_lock_device' });
    expect(vendor.calls).toEqual([]);
    const { rows } = await admin.query(
      `select kind, detail->'keyIds' as keys from incidents where tenant_id = $1 and resolved_at is null`,
      [tenantId],
    );
    expect(rows).toEqual([{ kind: 'room_without_lock', keys: [key.id] }]);
    const { getGuestKey } = await import('../guests/get-guest-key');
    expect(await getGuestKey(token)).toMatchObject({ vendorSync: 'failed', pin: null });
  });
});

describe('lock-provider failures', () => {
  it('open one incident per lock and kind, counting the keys it affects, and resolve it when every key is through', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    setInstallLockProviderForTests(fakeProvider({ ok: false, code: 'device_offline', retryable: true }));
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 2 + i * 30 });
      const key = await keyOf(reservationId);
      keys.push(key.id);
      await programKeyOnLock({ tenantId, keyId: key.id, ...LAST });
    }
    const open = async () =>
      (
        await admin.query(
          `select kind, occurrences, detail from incidents where tenant_id = $1 and resolved_at is null order by kind`,
          [tenantId],
        )
      ).rows;
    let incidents = await open();
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({
      kind: 'lock_program_failed',
      detail: { affectedKeys: 3, lastCode: 'device_offline' },
    });
    expect([...incidents[0].detail.keyIds].sort()).toEqual([...keys].sort());

    // The lock is back; a failed door waits for a manager's re-sync, which sends every one again.
    setInstallLockProviderForTests(fakeProvider({ ok: true, data: null }));
    const lock = await admin.query(`select lock_id from room_locks where room_id = $1`, [roomIds[0]]);
    const report = await reconcileLock({
      tenantId,
      lockId: lock.rows[0].lock_id,
      retryFailed: true,
      actor: TEST_ACTOR,
    });
    expect([...report.retriedKeyIds].sort()).toEqual([...keys].sort());
    await programKeyOnLock({ tenantId, keyId: keys[0]!, attempt: 1, maxAttempts: 8 });
    incidents = await open();
    expect(incidents[0]).toMatchObject({ detail: { affectedKeys: 2 } });
    // A key that ends and is removed no longer counts against the program failure either.
    await revokeKey({ tenantId, keyId: keys[1]!, reason: 'cancelled', actor: TEST_ACTOR });
    await removeKeyFromLock({ tenantId, keyId: keys[1]!, attempt: 1, maxAttempts: 8 });
    await programKeyOnLock({ tenantId, keyId: keys[2]!, attempt: 1, maxAttempts: 8 });
    expect(await open()).toEqual([]);
    const resolved = await admin.query(
      `select count(*)::int as n from incidents where tenant_id = $1 and kind = 'lock_program_failed'`,
      [tenantId],
    );
    expect(resolved.rows[0].n).toBe(1);
  });
});

describe('failed health checks', () => {
  it('open an incident when no worker beats, resolved when one does again', async () => {
    const saved = await admin.query(`select worker_id, beat_at, queue_worker_ids from worker_heartbeats`);
    await admin.query(`delete from worker_heartbeats`);
    try {
      const response = await healthRoute(new Request('http://test/api/health'), { params: Promise.resolve({}) });
      expect(response.status).toBe(503);
      const open = await admin.query(
        `select kind, severity from incidents where tenant_id is null and resolved_at is null and kind = 'health_worker'`,
      );
      expect(open.rows).toEqual([{ kind: 'health_worker', severity: 'critical' }]);
      await admin.query(`insert into worker_heartbeats (worker_id, beat_at) values ('health-test', now())`);
      const ok = await healthRoute(new Request('http://test/api/health'), { params: Promise.resolve({}) });
      expect(ok.status).toBe(200);
      const still = await admin.query(
        `select count(*)::int as n from incidents where tenant_id is null and resolved_at is null and kind = 'health_worker'`,
      );
      expect(still.rows[0].n).toBe(0);
    } finally {
      await admin.query(`delete from worker_heartbeats`);
      for (const row of saved.rows)
        await admin.query(`insert into worker_heartbeats (worker_id, beat_at, queue_worker_ids) values ($1, $2, $3)`, [
          row.worker_id,
          row.beat_at,
          row.queue_worker_ids,
        ]);
    }
  });

  it('open an incident when the lock provider cannot be reached, seen by every tenant’s managers, resolved when it answers', async () => {
    const { tenantId } = await createBookableTenant();
    setInstallLockProviderForTests(fakeProvider({ ok: false, code: 'network_error', retryable: true }));
    await checkLockProviderHealth();
    const { listIncidents } = await import('../incidents/list-incidents');
    expect((await listIncidents({ tenantId })).open.map((i) => i.kind)).toContain('health_lock_provider');
    setInstallLockProviderForTests(fakeProvider({ ok: true, data: null }));
    await checkLockProviderHealth();
    expect((await listIncidents({ tenantId })).open.map((i) => i.kind)).not.toContain('health_lock_provider');
  });
});
