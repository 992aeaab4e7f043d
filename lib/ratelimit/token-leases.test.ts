import { describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import { LEASE_MS, TokenLeases } from './token-leases';

async function tokensOf(bucket: string): Promise<number> {
  const admin = await adminClient();
  const { rows } = await admin.query('select tokens from rate_buckets where bucket = $1', [bucket]);
  await admin.end();
  return Number(rows[0].tokens);
}

describe('token leases from the PostgreSQL bucket', () => {
  it.each([
    { capacity: 6, perSecond: 2 }, // leases of one token
    { capacity: 80, perSecond: 20 }, // leases of up to 20
  ])('two processes hammering one bucket %o never grant more than capacity + refill in all', async (limit) => {
    const bucket = `lease-race-${limit.capacity}-${Date.now()}`;
    const rule = { bucket, ...limit };
    const processes = [new TokenLeases(), new TokenLeases()];
    let granted = 0;
    let refused = 0;
    const started = performance.now();
    await Promise.all(
      processes.flatMap((leases) =>
        Array.from({ length: 8 }, async () => {
          while (performance.now() - started < 1500) {
            try {
              await leases.take(rule);
              granted++;
            } catch (error) {
              expect(error).toMatchObject({ code: 'rate_limited' });
              refused++;
            }
          }
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    expect(granted).toBeGreaterThanOrEqual(rule.capacity);
    expect(granted).toBeLessThanOrEqual(rule.capacity + Math.ceil(seconds * rule.perSecond));
    expect(refused).toBeGreaterThan(0);
    // The bucket never went below empty: every token granted was taken from it.
    expect(await tokensOf(bucket)).toBeGreaterThanOrEqual(0);
  });

  it('an exhausted bucket refuses with 429 rate_limited and the seconds until a token is back', async () => {
    const bucket = `lease-empty-${Date.now()}`;
    const leases = new TokenLeases();
    const rule = { bucket, capacity: 2, perSecond: 0.25 };
    await leases.take(rule);
    await leases.take(rule);
    await expect(leases.take(rule)).rejects.toMatchObject({ code: 'rate_limited', details: { retryAfter: 4 } });
    // Another process gets nothing either.
    await expect(new TokenLeases().take(rule)).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('a lease expires: tokens left in it are not spent after LEASE_MS, the next take asks the bucket', async () => {
    const bucket = `lease-expiry-${Date.now()}`;
    let now = 1_000_000;
    const leases = new TokenLeases(() => now);
    const rule = { bucket, capacity: 40, perSecond: 0.001 };
    await leases.take(rule); // a lease of 1
    await leases.take(rule); // spent out: a lease of 2, one left
    expect(await tokensOf(bucket)).toBeCloseTo(37, 0);
    await leases.take(rule); // from the lease, no query
    expect(await tokensOf(bucket)).toBeCloseTo(37, 0);
    await leases.take(rule); // spent out again: a lease of 4
    expect(await tokensOf(bucket)).toBeCloseTo(33, 0);
    now += LEASE_MS + 1;
    await leases.take(rule); // three tokens left, but expired: a new lease
    expect(await tokensOf(bucket)).toBeLessThan(33);
  });
});
