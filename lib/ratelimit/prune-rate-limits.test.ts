import { randomUUID } from 'node:crypto';
import { parseCrontab } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { adminClient, loginClient } from '../../tooling/testing/fixtures';
import { crontab, taskList } from '../worker/tasks';
import { pruneRateLimits } from './prune-rate-limits';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

async function present(prefix: string): Promise<{ windows: string[]; buckets: string[] }> {
  const windows = await admin.query<{ bucket: string }>(
    `select bucket from rate_limits where starts_with(bucket, $1) order by bucket`,
    [prefix],
  );
  const buckets = await admin.query<{ bucket: string }>(
    `select bucket from rate_buckets where starts_with(bucket, $1) order by bucket`,
    [prefix],
  );
  return { windows: windows.rows.map((r) => r.bucket), buckets: buckets.rows.map((r) => r.bucket) };
}

describe('pruning rate-limit rows', () => {
  it('deletes windows over an hour old and buckets idle for an hour, and keeps the rest', async () => {
    const p = `prune-${randomUUID()}:`;
    await admin.query(
      `insert into rate_limits (bucket, window_start, hits) values ($1 || 'old', now() - interval '61 minutes', 5), ($1 || 'recent', now() - interval '59 minutes', 5), ($1 || 'current', now(), 1)`,
      [p],
    );
    await admin.query(
      `insert into rate_buckets (bucket, tokens, updated_at) values ($1 || 'idle', 0, now() - interval '61 minutes'), ($1 || 'active', 0, now() - interval '15 minutes')`,
      [p],
    );
    const pruned = await pruneRateLimits();
    expect(pruned.windows).toBeGreaterThanOrEqual(1);
    expect(pruned.buckets).toBeGreaterThanOrEqual(1);
    expect(await present(p)).toEqual({ windows: [`${p}current`, `${p}recent`], buckets: [`${p}active`] });
  });

  it('works through a backlog in batches', async () => {
    const p = `backlog-${randomUUID()}:`;
    await admin.query(
      `insert into rate_limits (bucket, window_start, hits) select $1 || g, now() - interval '2 hours', 1 from generate_series(1, 25) g`,
      [p],
    );
    await admin.query(
      `insert into rate_buckets (bucket, tokens, updated_at) select $1 || g, 1, now() - interval '2 hours' from generate_series(1, 25) g`,
      [p],
    );
    const pruned = await pruneRateLimits({ batch: 10 });
    expect(pruned.windows).toBeGreaterThanOrEqual(25);
    expect(pruned.buckets).toBeGreaterThanOrEqual(25);
    expect(await present(p)).toEqual({ windows: [], buckets: [] });
  });

  it('is executable by the service role only', async () => {
    const login = await loginClient();
    try {
      for (const role of ['app_anon', 'app_authenticated']) {
        for (const statement of [
          `select app_rate_prune(1)`,
          `select app_rate_give('x', 1)`,
          `select app_rate_take_all(array['x'], array[1], array[1.0::float8])`,
        ]) {
          await login.query('begin');
          await login.query(`set local role ${role}`);
          await expect(login.query(statement), `${role}: ${statement}`).rejects.toMatchObject({ code: '42501' });
          await login.query('rollback');
        }
      }
    } finally {
      await login.end();
    }
  });

  it('runs every ten minutes in the worker', () => {
    expect(Object.keys(taskList('test', () => []))).toContain('prune_rate_limits');
    const item = parseCrontab(crontab).find((i) => i.task === 'prune_rate_limits')!;
    expect(item.options.maxAttempts).toBe(1);
    const minutes = Array.from({ length: 60 }, (_, min) => min).filter((min) =>
      item.match({ min, hour: 3, date: 1, month: 1, dow: 1 }),
    );
    expect(minutes).toEqual([0, 10, 20, 30, 40, 50]);
  });
});
