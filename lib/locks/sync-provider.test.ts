import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { setInstallLockProviderForTests } from './install-provider';
import type { SimulatorCall } from '../../tooling/simulator/lock-simulator';
import { startLockSimulator, type LockSimulator } from '../../tooling/testing/lock-simulator';
import { runWorker } from '../worker/run-worker';
import { revokeKey } from '../keys/revoke-key';

// The simulator (TTLock's protocol) has no built-in credential: this file starts it with its own.
let sim: LockSimulator;
let worker: Awaited<ReturnType<typeof runWorker>>;
let admin: pg.Client;

const control = (path: string, body?: unknown) => sim.control(path, body);

async function callsFor(clientRef: string): Promise<SimulatorCall[]> {
  return (await sim.calls()).filter((c) => c.clientRef === clientRef);
}

async function waitForKey(
  keyId: string,
  until: (row: { vendor_sync: string; status: string }) => boolean,
  timeoutMs = 40_000,
) {
  const deadline = Date.now() + timeoutMs;
  const seen: string[] = [];
  for (;;) {
    const { rows } = await admin.query(
      `select k.status, k.vendor_sync, k.vendor_error,
              (select c.code_id from key_lock_codes c where c.key_id = k.id limit 1) as vendor_key_id
         from access_keys k where k.id = $1`,
      [keyId],
    );
    const row = rows[0];
    if (seen.at(-1) !== row.vendor_sync) seen.push(row.vendor_sync);
    if (until(row)) return { row, seen };
    if (Date.now() > deadline) throw new Error(`key ${keyId} stayed ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  sim = await startLockSimulator();
  setInstallLockProviderForTests(sim.provider({ timeoutMs: 400 }));
  admin = await adminClient();
  worker = await runWorker({ queueUrl: process.env.TEST_ADMIN_URL!, concurrency: 4 });
});
afterAll(async () => {
  await worker.stop();
  setInstallLockProviderForTests(null);
  await admin.end();
  await sim.close();
});

describe('provider commands through the outbox', () => {
  it('take a key from pending to synced through provider errors, programming its code once', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    await control('/_control/faults', { next: { count: 2, httpStatus: 500 } });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const { rows } = await admin.query(`select id, vendor_sync from access_keys where reservation_id = $1`, [
      reservationId,
    ]);
    expect(rows[0].vendor_sync).toBe('pending');
    const { row, seen } = await waitForKey(rows[0].id, (r) => r.vendor_sync === 'synced');
    expect(seen).toEqual(['pending', 'synced']);
    const adds = (await callsFor(rows[0].id)).filter((c) => c.endpoint === '/v3/keyboardPwd/add' && c.outcome === 'ok');
    expect(adds).toHaveLength(1);
    expect(adds[0]!.keyboardPwdId).toBe(row.vendor_key_id);
  }, 60_000);

  it('adopts a code whose answer was lost instead of programming it twice', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    await control('/_control/faults', { next: { count: 1, latencyMs: 1000 } });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
    const { row } = await waitForKey(rows[0].id, (r) => r.vendor_sync === 'synced');
    const calls = await callsFor(rows[0].id);
    expect(calls.filter((c) => c.endpoint === '/v3/keyboardPwd/add')).toHaveLength(1);
    const { locks } = (await control('/_control/codes')) as {
      locks: Record<string, { keyboardPwdId: string; clientRef: string }[]>;
    };
    const onLock = Object.values(locks)
      .flat()
      .filter((c) => c.clientRef === rows[0].id);
    expect(onLock).toEqual([
      expect.objectContaining({ keyboardPwdId: row.vendor_key_id, clientRef: rows[0].id, pinHash: expect.any(String) }),
    ]);
  }, 60_000);

  it('removes revoked keys from the lock, and a removal that cannot succeed fails loudly with an incident', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const { key, revokedKeyIds } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    await waitForKey(key.id, (r) => r.vendor_sync === 'synced');
    await waitForKey(revokedKeyIds[0]!, (r) => r.vendor_sync === 'synced');

    // The failure is for this room's lock alone: the worker also runs jobs other files left in this database.
    const { rows: doors } = await admin.query(
      `select l.device_id from room_locks rl join locks l on l.tenant_id = rl.tenant_id and l.id = rl.lock_id
        where rl.room_id = $1`,
      [roomIds[0]],
    );
    expect(doors).toHaveLength(1);
    await control('/_control/faults', { next: { count: 1, errcode: 30006, lockId: doors[0].device_id } });
    await revokeKey({ tenantId, keyId: key.id, reason: 'guest left early', actor: TEST_ACTOR });
    const { row } = await waitForKey(key.id, (r) => r.vendor_sync !== 'pending');
    expect(row).toMatchObject({ status: 'revoked', vendor_sync: 'failed', vendor_error: 'quota_exceeded' });
    const incidents = await admin.query(
      `select kind, severity, occurrences, resolved_at from incidents where tenant_id = $1`,
      [tenantId],
    );
    expect(incidents.rows).toEqual([
      { kind: 'lock_remove_failed', severity: 'critical', occurrences: 1, resolved_at: null },
    ]);
    const { locks } = (await control('/_control/codes')) as { locks: Record<string, { clientRef: string }[]> };
    expect(
      Object.values(locks)
        .flat()
        .filter((c) => c.clientRef === revokedKeyIds[0]),
    ).toEqual([]);
  }, 60_000);

  it('removes a key revoked while its code was being programmed (the removal is not skipped)', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    await control('/_control/faults', { latencyMs: 300 });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
    const preIssued = rows[0].id as string;
    // Let the program job start, then revoke the key underneath it (the check-in supersedes it).
    await new Promise((resolve) => setTimeout(resolve, 150));
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    await waitForKey(preIssued, (r) => r.vendor_sync === 'synced' && r.status === 'revoked');
    await waitForKey(key.id, (r) => r.vendor_sync === 'synced');
    await control('/_control/faults', {});
    const { locks } = (await control('/_control/codes')) as { locks: Record<string, { clientRef: string }[]> };
    const onLock = Object.values(locks)
      .flat()
      .map((c) => c.clientRef);
    expect(onLock).not.toContain(preIssued);
    expect(onLock).toContain(key.id);
  }, 60_000);
});
