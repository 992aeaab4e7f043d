import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, loginClient } from '../../tooling/testing/fixtures';
import { storeWebhookEvent } from './inbox';
import { relayWebhookEvents } from './relay';

let admin: pg.Client;
let run = 0;

beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

async function store(count: number): Promise<string[]> {
  run += 1;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { id } = await storeWebhookEvent({
      provider: 'stripe',
      dedupeKey: `evt_relay_${process.pid}_${run}_${i}`,
      type: 'payment_intent.created',
      tenantId: null,
      payload: { id: i },
      providerCreatedAt: new Date(),
    });
    ids.push(id!);
  }
  return ids;
}

/** Per event: its queued_at and how many process_webhook_event jobs name it. */
async function jobsPerEvent(ids: string[]): Promise<{ id: string; queued: boolean; jobs: number }[]> {
  const { rows } = await admin.query(
    `select e.id, e.queued_at is not null as queued,
            (select count(*)::int from graphile_worker._private_jobs j
               join graphile_worker._private_tasks t on t.id = j.task_id
              where t.identifier = 'process_webhook_event' and j.payload->>'eventId' = e.id::text) as jobs
       from webhook_events e where e.id = any ($1::uuid[]) order by e.id`,
    [ids],
  );
  return rows;
}

describe('webhook relay', () => {
  it('gives every stored event exactly one job, once', async () => {
    const ids = await store(3);
    expect((await jobsPerEvent(ids)).every((row) => !row.queued && row.jobs === 0)).toBe(true);

    expect(await relayWebhookEvents()).toBeGreaterThanOrEqual(3);
    const after = await jobsPerEvent(ids);
    expect(after).toHaveLength(3);
    expect(after.every((row) => row.queued && row.jobs === 1)).toBe(true);

    await relayWebhookEvents();
    expect((await jobsPerEvent(ids)).map((row) => row.jobs)).toEqual([1, 1, 1]);
  });

  it('relays running at once on separate connections never queue an event twice', async () => {
    const ids = await store(400);
    const relays = await Promise.all(Array.from({ length: 6 }, () => loginClient()));
    try {
      // Six backends relay small batches at the same time until nothing is left.
      const relayed = await Promise.all(
        relays.map(async (client) => {
          let total = 0;
          for (;;) {
            await client.query('begin');
            await client.query(`select set_config('role', 'app_service', true)`);
            const { rows } = await client.query('select app_webhook_relay(17) as n');
            await client.query('commit');
            if (rows[0].n === 0) return total;
            total += rows[0].n;
          }
        }),
      );
      expect(relayed.filter((n) => n > 0).length).toBeGreaterThan(1); // they really shared the work
      const rows = await jobsPerEvent(ids);
      expect(rows).toHaveLength(400);
      expect(rows.filter((row) => !row.queued || row.jobs !== 1)).toEqual([]);
    } finally {
      await Promise.all(relays.map((client) => client.end()));
    }
  });

  it("is the service role's alone", async () => {
    const client = await loginClient();
    try {
      for (const role of ['app_authenticated', 'app_anon']) {
        await client.query('begin');
        await client.query(`select set_config('role', $1, true)`, [role]);
        await expect(client.query('select app_webhook_relay(1)')).rejects.toMatchObject({ code: '42501' });
        await client.query('rollback');
      }
    } finally {
      await client.end();
    }
  });
});
