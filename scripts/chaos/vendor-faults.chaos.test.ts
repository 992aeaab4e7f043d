import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { System, waitFor } from './harness';

const system = new System('vendor-faults');
const MINUTE_MS = Number(process.env.CHAOS_VENDOR_MS ?? 60_000);

beforeAll(async () => {
  await system.start({ webs: 0, workers: 2 });
});
afterAll(async () => {
  await system.stop();
});

describe('chaos: the lock provider fails 30 % of calls with 2 s latency for a minute of check-ins and revocations', () => {
  it('programs no code twice, and every key ends synced, or failed with an incident', async () => {
    process.env.TEST_ADMIN_URL = system.adminUrl;
    const { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } = await import('../../tooling/testing/fixtures');
    const { completeCheckIn } = await import('../../lib/stays/complete-check-in');
    const { revokeKey } = await import('../../lib/keys/revoke-key');
    const admin = await adminClient();
    // A room per round, each stay already begun: check-in is open (and no stay waits behind another).
    const { tenantId, roomIds } = await createBookableTenant({ rooms: Math.ceil(MINUTE_MS / 1500) + 10 });
    await system.simulator('/_control/faults', { errorRate: 0.3, latencyMs: 2000, errorKind: 'http500' });
    const deadline = Date.now() + MINUTE_MS;
    let round = 0;
    while (Date.now() < deadline) {
      const roomId = roomIds[round % roomIds.length]!;
      const { reservationId } = await bookRoom({ tenantId, roomId, startsInHours: -1, hours: 24 });
      const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
      if (round % 2 === 0) await revokeKey({ tenantId, keyId: key.id, reason: 'chaos', actor: TEST_ACTOR });
      round += 1;
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    await system.simulator('/_control/faults', {});
    await waitFor(
      async () => {
        const { rows } = await admin.query(
          `select count(*)::int as n from access_keys where tenant_id = $1 and vendor_sync = 'pending'`,
          [tenantId],
        );
        return rows[0].n === 0;
      },
      240_000,
      'every key settled',
    );

    const { rows: keys } = await admin.query(`select id, status, vendor_sync from access_keys where tenant_id = $1`, [
      tenantId,
    ]);
    expect(keys.length).toBeGreaterThanOrEqual(round * 2);
    const failed = keys.filter((k) => k.vendor_sync === 'failed');
    if (failed.length > 0) {
      // One incident per lock and kind, listing the keys it affects.
      const { rows: incidents } = await admin.query(
        `select detail from incidents where tenant_id = $1 and resolved_at is null`,
        [tenantId],
      );
      for (const key of failed)
        expect({
          key: key.id,
          counted: incidents.some((i) => ((i.detail?.keyIds ?? []) as string[]).includes(key.id)),
        }).toEqual({ key: key.id, counted: true });
    }
    const { calls } = (await system.simulator('/_control/calls')) as {
      calls: { endpoint: string; outcome: string; clientRef: string | null }[];
    };
    const programmed = new Map<string, number>();
    for (const call of calls)
      if (call.endpoint === '/v3/keyboardPwd/add' && call.outcome === 'ok' && call.clientRef)
        programmed.set(call.clientRef, (programmed.get(call.clientRef) ?? 0) + 1);
    for (const [clientRef, n] of programmed) expect({ clientRef, n }).toEqual({ clientRef, n: 1 });
    // Live keys are on their locks; ended keys are not.
    const { locks } = (await system.simulator('/_control/codes')) as { locks: Record<string, { clientRef: string }[]> };
    const onLocks = new Set(
      Object.values(locks)
        .flat()
        .map((c) => c.clientRef),
    );
    for (const key of keys.filter((k) => k.vendor_sync === 'synced')) {
      expect({ key: key.id, status: key.status, onLock: onLocks.has(key.id) }).toEqual({
        key: key.id,
        status: key.status,
        onLock: key.status === 'active' || key.status === 'pre_issued',
      });
    }
    await admin.end();
  });
});
