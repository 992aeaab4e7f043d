import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAOS_SECRETS, System, waitFor } from './harness';

const system = new System('database-down');
const stripe = new Stripe('sk_test_unused');

beforeAll(async () => {
  await system.start({ webs: 1, workers: 1 });
});
afterAll(async () => {
  await system.stop();
});

async function deliver(id: string): Promise<number> {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type: 'payment_intent.succeeded',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: `pi_${id}` } },
  });
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: CHAOS_SECRETS.stripeWebhook });
  const response = await fetch(`${system.webUrl(0)}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
    signal: AbortSignal.timeout(15_000),
  }).catch(() => null);
  return response?.status ?? 0;
}

describe('chaos: PostgreSQL stops during a burst of webhook deliveries', () => {
  it('answers 503 while it is down, acknowledges nothing then, and processes every acknowledged event exactly once afterwards', async () => {
    const results = new Map<string, number>();
    let stop = false;
    const burst = (async () => {
      for (let i = 0; !stop; i++) {
        const id = `evt_chaos_${i}`;
        results.set(id, await deliver(id));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await system.stopDatabase();
    const downFrom = results.size;
    const stoppedAt = new Date();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // The health check fails while the database is down …
    const healthDown = await fetch(`${system.webUrl(0)}/api/health`, { signal: AbortSignal.timeout(15_000) });
    expect({ status: healthDown.status, db: (await healthDown.json()).checks?.db }).toEqual({
      status: 503,
      db: 'failing',
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const downTo = results.size;
    await system.startDatabase();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    // … and once it answers again, the outage is written down as an incident of the install.
    await waitFor(
      async () =>
        (await fetch(`${system.webUrl(0)}/api/health`, { signal: AbortSignal.timeout(15_000) })).status === 200,
      60_000,
      'healthy again',
    );
    stop = true;
    await burst;

    const statuses = [...results.values()];
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    // While the database was down (allowing a request either side of the edges), nothing was acknowledged.
    const whileDown = [...results.values()].slice(downFrom + 1, Math.max(downFrom + 1, downTo - 1));
    expect(whileDown.length).toBeGreaterThan(0);
    expect(whileDown.every((s) => s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(10);
    // After the restart deliveries are acknowledged again.
    expect(statuses.at(-1)).toBe(200);

    const acknowledged = [...results].filter(([, s]) => s === 200).map(([id]) => id);
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: system.adminUrl });
    await admin.connect();
    await waitFor(
      async () => {
        const { rows } = await admin.query(
          `select count(*)::int as n from webhook_events where provider = 'stripe' and status not in ('processed', 'ignored')`,
        );
        return rows[0].n === 0;
      },
      90_000,
      'every event processed',
    );
    const { rows } = await admin.query(
      `select dedupe_key, count(*)::int as n, min(status::text) as status from webhook_events where provider = 'stripe' group by 1`,
    );
    const stored = new Map(rows.map((r) => [r.dedupe_key as string, r]));
    for (const id of acknowledged) expect({ id, stored: stored.get(id)?.n ?? 0 }).toEqual({ id, stored: 1 });
    expect([...stored.values()].every((r) => r.status === 'ignored')).toBe(true);
    const outage = await admin.query(
      `select tenant_id, opened_at, resolved_at from incidents where kind = 'health_database'`,
    );
    expect(outage.rows).toHaveLength(1);
    expect(outage.rows[0].tenant_id).toBeNull();
    expect(outage.rows[0].resolved_at).not.toBeNull();
    expect(Math.abs(new Date(outage.rows[0].opened_at).getTime() - stoppedAt.getTime())).toBeLessThan(10_000);
    await admin.end();
  });
});
