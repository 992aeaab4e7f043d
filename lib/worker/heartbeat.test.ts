import type { JobHelpers } from 'graphile-worker';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import { checkHealth } from '../health/check-health';
import { beat, forgetWorker, reapDeadWorkers } from './heartbeat';
import { taskList } from './tasks';

// A worker killed mid-job leaves its jobs locked for four hours unless a live worker releases them
// through the dead one's heartbeat. The heartbeat must keep naming its job-queue pools, and the
// release must happen in the same transaction that forgets the dead worker.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
// Reaping a dead worker opens the install's worker incident, which stays a while: other test files
// sharing this database expect none open.
afterEach(async () => {
  await admin.query(
    `update incidents set resolved_at = now() where tenant_id is null and condition_key = 'health:worker' and resolved_at is null`,
  );
});
afterAll(async () => {
  await admin.end();
});

async function lockedJob(lockedBy: string): Promise<string> {
  const { rows } = await admin.query(
    `select (graphile_worker.add_job('heartbeat_probe', '{}'::json, queue_name => $1)).id`,
    [`probe:${lockedBy}`],
  );
  const id = rows[0].id as string;
  await admin.query(`update graphile_worker._private_jobs set locked_by = $2, locked_at = now() where id = $1`, [
    id,
    lockedBy,
  ]);
  return id;
}

const lockedByOf = async (jobId: string) =>
  (await admin.query(`select locked_by from graphile_worker._private_jobs where id = $1`, [jobId])).rows[0]
    ?.locked_by ?? null;

describe('the worker heartbeat', () => {
  it('keeps naming the worker’s job-queue pools when the once-a-minute cron heartbeat runs', async () => {
    const workerId = `cron-beat-${Date.now()}`;
    const pools = ['pool-a', 'worker-a1'];
    await beat(workerId, pools);
    const heartbeat = taskList(workerId, () => pools).heartbeat as (
      payload: unknown,
      helpers: JobHelpers,
    ) => Promise<void>;
    await heartbeat({}, {} as JobHelpers);
    const { rows } = await admin.query(`select queue_worker_ids from worker_heartbeats where worker_id = $1`, [
      workerId,
    ]);
    expect(rows[0].queue_worker_ids).toEqual(pools);
    await admin.query(`delete from worker_heartbeats where worker_id = $1`, [workerId]);
  });

  it('releases a dead worker’s jobs in the transaction that removes its heartbeat', async () => {
    const pool = `dead-pool-${Date.now()}`;
    await admin.query(
      `insert into worker_heartbeats (worker_id, beat_at, queue_worker_ids) values ($1, now() - interval '2 minutes', $2)`,
      [`dead-${pool}`, [pool]],
    );
    const job = await lockedJob(pool);
    expect(await reapDeadWorkers()).toContain(pool);
    expect(await lockedByOf(job)).toBeNull();
    expect(
      (await admin.query(`select count(*)::int as n from worker_heartbeats where worker_id = $1`, [`dead-${pool}`]))
        .rows[0].n,
    ).toBe(0);
  });

  it('forgets nothing when the reaper dies half way: a later reap still releases the jobs', async () => {
    const pool = `half-pool-${Date.now()}`;
    await admin.query(
      `insert into worker_heartbeats (worker_id, beat_at, queue_worker_ids) values ($1, now() - interval '2 minutes', $2)`,
      [`half-${pool}`, [pool]],
    );
    const job = await lockedJob(pool);
    // Another session holds the job's row: the reaper blocks while releasing it — then is killed.
    const blocker = await adminClient();
    await blocker.query('begin');
    await blocker.query(`select id from graphile_worker._private_jobs where id = $1 for update`, [job]);
    const reaping = reapDeadWorkers().then(
      () => 'finished',
      () => 'killed',
    );
    let waiting: { pid: number }[] = [];
    for (let i = 0; i < 200 && waiting.length === 0; i++) {
      waiting = (
        await admin.query(
          `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      ).rows;
      if (waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(waiting).toHaveLength(1);
    await admin.query(`select pg_terminate_backend($1)`, [waiting[0]!.pid]);
    expect(await reaping).toBe('killed');
    await blocker.query('rollback');
    await blocker.end();
    // The dead worker is still known, so the next reap (in any live worker) releases its jobs.
    expect(await reapDeadWorkers()).toContain(pool);
    expect(await lockedByOf(job)).toBeNull();
  });
});

describe('a dead worker', () => {
  const workerIncident = async () =>
    (
      await admin.query(
        `select id, severity, detail from incidents
          where tenant_id is null and condition_key = 'health:worker' and resolved_at is null`,
      )
    ).rows as { id: string; severity: string; detail: { deadWorkers?: string[]; reapedAt?: string } }[];

  it('is noticed by a live worker: releasing its jobs opens the install’s worker incident, naming it', async () => {
    const dead = `dead-noticed-${Date.now()}`;
    await admin.query(
      `insert into worker_heartbeats (worker_id, beat_at, queue_worker_ids) values ($1, now() - interval '2 minutes', $2)`,
      [dead, [`${dead}-pool`]],
    );
    await reapDeadWorkers();
    const [open] = await workerIncident();
    expect(open).toMatchObject({ severity: 'critical' });
    expect(open!.detail.deadWorkers).toContain(dead);

    // The install carries on (a worker beats): the incident stays while the death is recent…
    await beat(`live-${dead}`, []);
    await checkHealth();
    expect((await workerIncident()).map((i) => i.id)).toEqual([open!.id]);
    // …and resolves once it is ten minutes old with workers beating.
    await admin.query(
      `update incidents set detail = detail || jsonb_build_object('reapedAt', now() - interval '11 minutes') where id = $1`,
      [open!.id],
    );
    await checkHealth();
    expect(await workerIncident()).toEqual([]);
    await admin.query(`delete from worker_heartbeats where worker_id = $1`, [`live-${dead}`]);
  });

  it('is not what a worker that stops cleanly becomes: it forgets its own heartbeat', async () => {
    const clean = `clean-stop-${Date.now()}`;
    await beat(clean, ['clean-pool']);
    await forgetWorker(clean);
    const { rows } = await admin.query(`select count(*)::int as n from worker_heartbeats where worker_id = $1`, [
      clean,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
