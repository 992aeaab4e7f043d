import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { System, waitFor } from './harness';

// The once-a-minute cron heartbeat once rewrote a worker's heartbeat with no job-queue ids: a worker
// killed in the seconds after it left its jobs locked for four hours. Kill one right after a cron
// beat; its jobs must run on another worker within a minute.

const system = new System('worker-cron');

beforeAll(async () => {
  await system.start({ webs: 0, workers: 1 });
});
afterAll(async () => {
  await system.stop();
});

describe('chaos: a worker is SIGKILLed right after a cron heartbeat', () => {
  it('its jobs run on another worker within a minute', async () => {
    const { adminClient, bookRoom, createBookableTenant } = await import('../../tooling/testing/fixtures');
    process.env.TEST_ADMIN_URL = system.adminUrl;
    const admin = await adminClient();
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 10 });
    await system.simulator('/_control/faults', { latencyMs: 2000 });

    // The next cron beat: a minute boundary, and the heartbeat job it schedules having run.
    const boundary = new Date(Math.ceil(Date.now() / 60_000) * 60_000);
    await waitFor(
      async () => {
        const { rows } = await admin.query(
          `select last_execution from graphile_worker._private_known_crontabs where identifier = 'heartbeat'`,
        );
        return rows[0]?.last_execution && new Date(rows[0].last_execution) >= boundary;
      },
      75_000,
      'a cron heartbeat',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    for (let i = 0; i < 20; i++)
      await bookRoom({ tenantId, roomId: roomIds[i % 10]!, startsInHours: 2 + Math.floor(i / 10) * 48, hours: 24 });
    await waitFor(
      async () => {
        const { rows } = await admin.query(
          `select count(*)::int as n from graphile_worker._private_jobs where locked_by is not null`,
        );
        return rows[0].n > 0;
      },
      10_000,
      'jobs locked by the worker',
    );
    await system.kill(system.workers[0]);
    const killedAt = Date.now();
    system.workers[0] = system.startWorkerProcess(0);
    await system.simulator('/_control/faults', {});

    await waitFor(
      async () => {
        const { rows } = await admin.query(
          `select count(*) filter (where vendor_sync <> 'synced')::int as open from access_keys where tenant_id = $1`,
          [tenantId],
        );
        return rows[0].open === 0;
      },
      120_000,
      'every key synced',
    );
    // Dead after 45 s, reaped on a 10 s tick, then programmed: well inside 75 s of the kill.
    expect(Date.now() - killedAt).toBeLessThan(75_000);
    const { rows: keys } = await admin.query(`select id from access_keys where tenant_id = $1`, [tenantId]);
    const { locks } = (await system.simulator('/_control/codes')) as { locks: Record<string, { clientRef: string }[]> };
    const onLocks = Object.values(locks).flat();
    for (const key of keys)
      expect({ key: key.id, codes: onLocks.filter((c) => c.clientRef === key.id).length }).toEqual({
        key: key.id,
        codes: 1,
      });
    await admin.end();
  });
});
