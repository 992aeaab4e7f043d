import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import { removeIdleJobQueues } from './job-queues';

// graphile-worker keeps every named queue it ever made, and each fetch locks every free one: the worker removes
// the idle ones (decision 038), never one that a job still needs — even a job not committed yet, whose queue,
// removed, would leave it referring to no queue, never fetched.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const run = `${process.pid}-${Date.now()}`;
const queueOf = async (name: string) =>
  (await admin.query(`select id, locked_at from graphile_worker._private_job_queues where queue_name = $1`, [name]))
    .rows[0] ?? null;
const addJob = (client: pg.ClientBase, queue: string) =>
  client.query<{ id: string; job_queue_id: string | null }>(
    `select id, job_queue_id from graphile_worker.add_job('gc_probe', '{}'::json, queue_name => $1,
                                                          run_at => now() + interval '1 day')`,
    [queue],
  );

describe('removing idle job queues', () => {
  it('removes a queue whose jobs are done, keeps one with a job waiting and one locked by a worker', async () => {
    const idle = `gc-probe:idle:${run}`;
    const waiting = `gc-probe:waiting:${run}`;
    const locked = `gc-probe:locked:${run}`;
    const done = (await addJob(admin, idle)).rows[0]!;
    await admin.query(`delete from graphile_worker._private_jobs where id = $1`, [done.id]);
    const pending = (await addJob(admin, waiting)).rows[0]!;
    const running = (await addJob(admin, locked)).rows[0]!;
    await admin.query(`delete from graphile_worker._private_jobs where id = $1`, [running.id]);
    await admin.query(
      `update graphile_worker._private_job_queues set locked_at = now(), locked_by = 'gc-probe' where queue_name = $1`,
      [locked],
    );
    expect(await removeIdleJobQueues(admin)).toBeGreaterThanOrEqual(1);
    expect(await queueOf(idle)).toBeNull();
    expect((await queueOf(waiting))?.id).toBe(pending.job_queue_id);
    expect(await queueOf(locked)).not.toBeNull();
    await admin.query(`delete from graphile_worker._private_jobs where id = $1`, [pending.id]);
    await admin.query(`delete from graphile_worker._private_job_queues where queue_name = any($1)`, [
      [waiting, locked],
    ]);
  });

  it('waits for a transaction adding a job to an idle queue, and keeps that queue', async () => {
    // The queue exists and is idle: add_job makes nothing new, and its job refers to it before it commits.
    const queue = `gc-probe:reused:${run}`;
    const before = (await addJob(admin, queue)).rows[0]!;
    await admin.query(`delete from graphile_worker._private_jobs where id = $1`, [before.id]);
    const adding = new pg.Client({ connectionString: process.env.TEST_ADMIN_URL });
    const collector = new pg.Client({ connectionString: process.env.TEST_ADMIN_URL });
    await Promise.all([adding.connect(), collector.connect()]);
    try {
      await adding.query('begin');
      const job = (await addJob(adding, queue)).rows[0]!;
      expect(job.job_queue_id).toBe(before.job_queue_id);
      let finished = false;
      const removing = removeIdleJobQueues(collector).then((n) => {
        finished = true;
        return n;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Blocked on the table lock while the job's transaction is open.
      expect(finished).toBe(false);
      await adding.query('commit');
      await removing;
      const queued = await admin.query(
        `select j.job_queue_id, q.queue_name from graphile_worker._private_jobs j
           left join graphile_worker._private_job_queues q on q.id = j.job_queue_id where j.id = $1`,
        [job.id],
      );
      expect(queued.rows[0]).toEqual({ job_queue_id: job.job_queue_id, queue_name: queue });
      await admin.query(`delete from graphile_worker._private_jobs where id = $1`, [job.id]);
    } finally {
      await Promise.all([adding.end(), collector.end()]);
    }
  });
});
