import { describe, expect, it } from 'vitest';
import { programKeyOnLock, RetryableProviderError } from './sync-provider';
import { bookRoom, createBookableTenant } from '../../tooling/testing/fixtures';
import { withSimulatorProvider } from '../../tooling/testing/lock-simulator';
import { listLockDetails } from './locks';
import { checkTenantLocks, reconcileLock } from './reconcile';

// Lock health tells the truth (issue 28, item 11 c), against the simulator (TTLock's protocol): a lock
// whose gateway is offline is not "online" although TTLock's lock list still says it has a gateway; a
// re-sync that could not reach the lock says so; an offline lock with keys due opens an incident at
// its next status read.
const env = withSimulatorProvider();

/** A room on a simulator lock, a stay booked whose key has not reached the lock, and that lock's gateway down. */
async function keyDueOnAnOfflineGateway() {
  const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
  const { rows: locks } = await env.admin.query(`select id, device_id from locks where tenant_id = $1`, [tenantId]);
  const { id: lockId, device_id: deviceId } = locks[0] as { id: string; device_id: string };
  // The simulator's gateways serve the locks of their hundred (tooling/simulator/lock-simulator.ts).
  const gatewayId = Math.floor(Number(deviceId) / 100);
  await env.sim.control('/_control/faults', { gateways: { [String(gatewayId)]: { offline: true } } });
  const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
  const { rows } = await env.admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
  const keyId: string = rows[0].id;
  await expect(programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 })).rejects.toBeInstanceOf(
    RetryableProviderError,
  );
  return { tenantId, lockId, keyId };
}

describe('lock health', () => {
  it('says a lock behind an offline gateway is offline, and opens an incident naming the keys due', async () => {
    const { tenantId, lockId, keyId } = await keyDueOnAnOfflineGateway();
    await checkTenantLocks(tenantId);
    const { rows: lock } = await env.admin.query(`select online, offline_reason from locks where id = $1`, [lockId]);
    expect(lock).toEqual([{ online: false, offline_reason: 'gateway_offline' }]);
    // The Locks page says why, not only "Offline".
    expect((await listLockDetails({ tenantId })).find((l) => l.id === lockId)).toMatchObject({
      online: false,
      offlineReason: 'gateway_offline',
    });
    const { rows: incidents } = await env.admin.query(
      `select kind, severity, detail from incidents where tenant_id = $1 and resolved_at is null`,
      [tenantId],
    );
    expect(incidents).toMatchObject([
      { kind: 'lock_offline', severity: 'critical', detail: { lockId, keyIds: [keyId], reason: 'gateway_offline' } },
    ]);

    // The gateway is back: online again, the incident resolves.
    await env.sim.control('/_control/faults', {});
    await checkTenantLocks(tenantId);
    expect((await env.admin.query(`select online, offline_reason from locks where id = $1`, [lockId])).rows).toEqual([
      { online: true, offline_reason: null },
    ]);
    expect(
      (await env.admin.query(`select kind from incidents where tenant_id = $1 and resolved_at is null`, [tenantId]))
        .rows,
    ).toEqual([]);
  });

  it('a re-sync that could not reach the lock does not report that it matches our records', async () => {
    const { tenantId, lockId } = await keyDueOnAnOfflineGateway();
    const report = await reconcileLock({ tenantId, lockId, retryFailed: true });
    expect(report).toMatchObject({ reached: false, offlineReason: 'gateway_offline' });
    await env.sim.control('/_control/faults', {});
    expect(await reconcileLock({ tenantId, lockId })).toMatchObject({ reached: true, offlineReason: null });
  });
});
