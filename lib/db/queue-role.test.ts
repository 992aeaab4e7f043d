import pg from 'pg';
import { makeWorkerUtils, Logger } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { localSecrets } from '../../tooling/config/local-state';
import { inOwnDatabase } from '../../tooling/testing/own-database';
import { runWorker } from '../worker/run-worker';
import { QUEUE_ROLE, withCredentials } from '../../tooling/database/database';
import { asService } from './tx';

// The worker's job queue connects as app_queue: graphile-worker's schema and nothing else. This
// file works in a database of its own, so the real worker it starts sees only its own jobs.
const { adminUrl } = inOwnDatabase('queue');
// The password the test run gave the (cluster-wide) queue role: prepareDatabase's default.
const queueUrl = withCredentials(
  adminUrl,
  QUEUE_ROLE,
  process.env.APP_QUEUE_DB_PASSWORD || localSecrets().appQueueDbPassword,
);
const silent = new Logger(() => () => {});

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe('the job queue’s role', () => {
  it('is refused everything of the application: tables, functions, roles', async () => {
    const queue = new pg.Client({ connectionString: queueUrl });
    await queue.connect();
    try {
      // The application's schema is out of its sight (no usage on it): not even a name resolves…
      await expect(queue.query('select * from tenants limit 1')).rejects.toMatchObject({ code: '42P01' });
      // …and anything named outright is refused.
      const refused = [
        'select * from public.tenants limit 1',
        'select * from public.access_keys limit 1',
        `insert into public.tenants (name) values ('queue')`,
        `select public.app_enqueue_job('expire_keys', '{}'::jsonb)`,
        'set role app_service',
        'set role postgres',
      ];
      for (const sql of refused) await expect(queue.query(sql), sql).rejects.toMatchObject({ code: '42501' });
      // …while graphile-worker's own schema is open to it.
      const { rows } = await queue.query('select count(*)::int as n from graphile_worker.jobs');
      expect(rows[0].n).toBeGreaterThanOrEqual(0);
    } finally {
      await queue.end();
    }
  });

  it('owns nothing and is no superuser', async () => {
    const rows = await query<{ rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean; owned: number }>(
      adminUrl,
      `select rolsuper, rolcreaterole, rolcreatedb,
              (select count(*) from pg_class where relowner = r.oid)::int as owned
         from pg_roles r where rolname = $1`,
      [QUEUE_ROLE],
    );
    expect(rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false, owned: 0 }]);
  });

  it('runs real jobs through graphile-worker: the worker started on it completes a job the application added', async () => {
    // Added the way the application adds jobs: the service role, inside its own transaction.
    await asService(
      (tx) => tx.$executeRaw`select app_enqueue_job('expire_keys', '{}'::jsonb, job_key => 'queue-role-probe')`,
    );
    const waiting = await query<{ id: string }>(
      adminUrl,
      `select id from graphile_worker.jobs where key = 'queue-role-probe'`,
    );
    expect(waiting).toHaveLength(1);

    const worker = await runWorker({ queueUrl, concurrency: 1 });
    try {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const left = await query<{ attempts: number; last_error: string | null }>(
          adminUrl,
          `select attempts, last_error from graphile_worker.jobs where id = $1`,
          [waiting[0]!.id],
        );
        if (left.length === 0) break; // graphile-worker deletes a job once it succeeded
        expect(left[0]!.last_error).toBeNull();
        if (Date.now() > deadline) throw new Error(`the job is still waiting: ${JSON.stringify(left)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await worker.stop();
    }

    // The heartbeat's reaper releases dead workers' jobs through the same connection.
    const utils = await makeWorkerUtils({ connectionString: queueUrl, logger: silent });
    try {
      await utils.forceUnlockWorkers(['a-dead-worker']);
    } finally {
      await utils.release();
    }
  }, 60_000);
});
