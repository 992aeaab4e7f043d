import pg from 'pg';
import { Logger, run } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { registerLockProvider } from '../locks/tenant-provider';
import { fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { queuePoolConfig, runWorker, workerPreset } from './run-worker';

// The queue's own bookkeeping commits without waiting for its WAL flush; nothing else does.
describe('the worker’s queue connections', () => {
  it('commit asynchronously, while the app’s connections keep waiting for the flush', async () => {
    const queue = new pg.Pool(queuePoolConfig(process.env.TEST_ADMIN_URL!, 4));
    const app = new pg.Client({ connectionString: process.env.APP_DATABASE_URL });
    await app.connect();
    try {
      expect((await queue.query('show synchronous_commit')).rows[0].synchronous_commit).toBe('off');
      // Every connection of the pool, not only the first.
      const clients = await Promise.all([queue.connect(), queue.connect()]);
      for (const client of clients) {
        expect((await client.query('show synchronous_commit')).rows[0].synchronous_commit).toBe('off');
        client.release();
      }
      expect((await app.query('show synchronous_commit')).rows[0].synchronous_commit).toBe('on');
    } finally {
      await queue.end();
      await app.end();
    }
  });
});

// A key's jobs share a named queue so that programming and removing its code on a door never overlap
// (decision 038): however many the worker fetches, one job of a queue runs at a time, and the queue is free
// once they are done.
describe('the worker’s settings', () => {
  it('run the jobs of one named queue one at a time and leave the queue unlocked', async () => {
    const queue = `serial-probe:${process.pid}:${Date.now()}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_ADMIN_URL });
    await admin.connect();
    const pgPool = new pg.Pool(queuePoolConfig(process.env.TEST_ADMIN_URL!, 4));
    pgPool.on('error', () => undefined);
    let active = 0;
    let mostAtOnce = 0;
    let done = 0;
    const jobs = 6;
    const runner = await run({
      pgPool,
      concurrency: 4,
      noHandleSignals: true,
      logger: new Logger(() => () => {}),
      taskList: {
        serial_probe: async () => {
          active += 1;
          mostAtOnce = Math.max(mostAtOnce, active);
          await new Promise((resolve) => setTimeout(resolve, 40));
          active -= 1;
          done += 1;
        },
      },
      preset: workerPreset(),
    });
    try {
      // Added in one statement, so that one fetch finds them all ready.
      await admin.query(
        `select graphile_worker.add_jobs(array(select (
           'serial_probe', '{}'::json, $1::text, now() - interval '1 second', null, null, null, null
         )::graphile_worker.job_spec from generate_series(1, $2)))`,
        [queue, jobs],
      );
      const until = Date.now() + 20_000;
      while (done < jobs && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(done).toBe(jobs);
      expect(mostAtOnce).toBe(1);
      // The last completion (written just after its task returns) releases the queue.
      const lockedQueues = async () =>
        (
          await admin.query(
            `select count(*)::int as n from graphile_worker._private_job_queues where queue_name = $1 and locked_at is not null`,
            [queue],
          )
        ).rows[0].n as number;
      const settled = Date.now() + 2000;
      while ((await lockedQueues()) > 0 && Date.now() < settled) await new Promise((r) => setTimeout(r, 50));
      expect(await lockedQueues()).toBe(0);
    } finally {
      await runner.stop();
      await pgPool.end();
      await admin.query(
        `delete from graphile_worker._private_jobs where job_queue_id in
        (select id from graphile_worker._private_job_queues where queue_name = $1)`,
        [queue],
      );
      await admin.query(`delete from graphile_worker._private_job_queues where queue_name = $1`, [queue]);
      await admin.end();
    }
  });
});

// A deploy or a test's teardown stops the worker: a job stuck on a provider that never answers must not hold it.
describe('a worker’s stop', () => {
  it('releases a job still running after the grace to the queue, and returns', async () => {
    const fake = fakeLockProvider();
    registerLockProvider('seam', () => fake.provider);
    const { tenantId } = await tenantOnProvider({ provider: 'seam' });
    let asked = false;
    fake.provider.checkHealth = () => {
      asked = true;
      return new Promise(() => undefined); // never answers
    };
    const admin = new pg.Client({ connectionString: process.env.TEST_ADMIN_URL });
    await admin.connect();
    const worker = await runWorker({ queueUrl: process.env.TEST_ADMIN_URL!, concurrency: 2, stopGraceMs: 500 });
    try {
      const jobKey = `stuck-probe:${tenantId}`;
      await admin.query(
        `select graphile_worker.add_job('check_tenant_provider', json_build_object('tenantId', $1::text, 'provider', 'seam'),
                                        job_key => $2, max_attempts => 3)`,
        [tenantId, jobKey],
      );
      const until = Date.now() + 20_000;
      while (!asked && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(asked).toBe(true);
      await worker.stop();
      const { rows } = await admin.query(`select attempts, locked_at from graphile_worker.jobs where key = $1`, [
        jobKey,
      ]);
      expect(rows).toHaveLength(1);
      expect(rows[0].attempts).toBe(1);
      expect(rows[0].locked_at).toBeNull();
      await admin.query(`select graphile_worker.remove_job($1)`, [jobKey]);
    } finally {
      await admin.end();
    }
  }, 60_000);
});
