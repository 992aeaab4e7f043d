import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { System, waitFor } from './harness';

const system = new System('worker-kill');

beforeAll(async () => {
  await system.start({ webs: 0, workers: 2 });
});
afterAll(async () => {
  await system.stop();
});

describe('chaos: a worker is SIGKILLed mid-job', () => {
  it('its jobs are released and finished by the others; every key ends synced, each code programmed once', async () => {
    const { adminClient, bookRoom, createBookableTenant } = await import('../../tooling/testing/fixtures');
    process.env.TEST_ADMIN_URL = system.adminUrl;
    const admin = await adminClient();
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 10 });
    // The lock answers slowly, so jobs are in flight when the worker dies.
    await system.simulator('/_control/faults', { latencyMs: 1500 });
    for (let i = 0; i < 20; i++)
      await bookRoom({ tenantId, roomId: roomIds[i % 10]!, startsInHours: 2 + Math.floor(i / 10) * 48, hours: 24 });
    await waitFor(
      async () => ((await system.simulator('/_control/calls')) as { calls: unknown[] }).calls.length > 2,
      20_000,
      'vendor calls in flight',
    );
    await system.kill(system.workers[0]);
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
      150_000,
      'every key synced',
    ).catch(async (error) => {
      const debug = await admin.query(
        `select vendor_sync, vendor_error, count(*)::int from access_keys where tenant_id = $1 group by 1, 2`,
        [tenantId],
      );
      const jobs = await admin.query(
        `select j.locked_by, j.attempts, j.last_error, j.run_at > now() as later, count(*)::int from graphile_worker._private_jobs j group by 1, 2, 3, 4`,
      );
      const beats = await admin.query(`select worker_id, beat_at, queue_worker_ids from worker_heartbeats`);
      console.error(JSON.stringify({ keys: debug.rows, jobs: jobs.rows, beats: beats.rows }, null, 1));
      throw error;
    });

    const { rows: keys } = await admin.query(`select id from access_keys where tenant_id = $1`, [tenantId]);
    expect(keys).toHaveLength(20);
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
