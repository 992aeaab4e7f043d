import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { adminClient } from '../../tooling/testing/fixtures';
import { createStaffUser } from '../staff/create-staff-user';
import { createTenant } from '../staff/create-tenant';
import { joinTenant } from '../../tooling/testing/accounts';
import { verifyPassword } from './password';
import { FAILURES_PER_ACCOUNT_AND_ADDRESS, signInWithPassword, unlockUser } from './sign-in';

// Counts the password checks that could succeed (against a stored hash, not the dummy one).
vi.mock('./password', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./password')>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});
const realVerifications = () => vi.mocked(verifyPassword).mock.calls.filter(([, stored]) => stored !== null).length;

const RIGHT = 'right password';
let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  vi.mocked(verifyPassword).mockClear();
});

async function staffUser(tenantIds?: string[]): Promise<{ email: string; userId: string; tenantIds: string[] }> {
  const tenants = tenantIds ?? [(await createTenant({ name: 'Sign-in' })).id];
  const email = `desk-${randomUUID()}@example.com`;
  const [first, ...others] = tenants;
  const userId = (await createStaffUser({ tenantId: first!, email, password: RIGHT, role: 'front_desk' })).id;
  for (const tenantId of others) await joinTenant({ userId, email, tenantId, role: 'front_desk' });
  return { email, userId, tenantIds: tenants };
}

/** A fresh address for each test, so buckets never leak between tests. */
const addr = () => `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 8)}`;

/** Time passes for the sign-in buckets (as the owner: their last update moves into the past). */
async function rewind(minutes: number): Promise<void> {
  await admin.query(
    `update rate_buckets set updated_at = updated_at - make_interval(mins => $1) where bucket like 'sign-in:%'`,
    [minutes],
  );
}

const attempt = (email: string, password: string, address: string) => signInWithPassword({ email, password, address });

describe('signing in with a password', () => {
  it('accepts the right password (any case of the email) and answers every failure alike', async () => {
    const { email, userId } = await staffUser();
    const a = addr();
    expect(await attempt(email.toUpperCase(), RIGHT, a)).toEqual({
      ok: true,
      user: { id: userId, email, name: '', sessionGeneration: 0, mustChangePassword: false },
    });
    expect(await attempt('nobody@example.com', RIGHT, a)).toEqual({ ok: false });
    expect(await attempt(email, 'wrong', a)).toEqual({ ok: false });
    expect(await signInWithPassword({ email, password: RIGHT })).toMatchObject({ ok: true });
  });

  it('lets 25 successful sign-ins in a row from one address through (a shared desk account)', async () => {
    const { email } = await staffUser();
    const a = addr();
    const results = [];
    for (let i = 0; i < 25; i++) results.push((await attempt(email, RIGHT, a)).ok);
    expect(results).toEqual(Array(25).fill(true));
  });

  it('refuses an address after five failures, even with the right password, until its bucket refills', async () => {
    const { email } = await staffUser();
    const a = addr();
    for (let i = 0; i < FAILURES_PER_ACCOUNT_AND_ADDRESS; i++)
      expect(await attempt(email, 'wrong', a)).toEqual({ ok: false });
    expect(await attempt(email, RIGHT, a)).toEqual({ ok: false });
    // The refused attempt did not verify the password at all (the same hashing work against nothing).
    expect(realVerifications()).toBe(FAILURES_PER_ACCOUNT_AND_ADDRESS);
    await rewind(4); // one token back (five per 15 minutes)
    expect(await attempt(email, RIGHT, a)).toMatchObject({ ok: true });
  });

  it('never refuses the right password from another address, whatever one address does', async () => {
    const { email } = await staffUser();
    const attacker = addr();
    for (let i = 0; i < 30; i++) expect(await attempt(email, 'wrong', attacker)).toEqual({ ok: false });
    expect(await attempt(email, RIGHT, attacker)).toEqual({ ok: false });
    expect(await attempt(email, RIGHT, addr())).toMatchObject({ ok: true });
    expect(realVerifications()).toBe(FAILURES_PER_ACCOUNT_AND_ADDRESS + 1);
  });

  it('cannot be kept locked: one wrong attempt after the slowdown ends never locks the owner out again', async () => {
    const { email } = await staffUser();
    const attacker = addr();
    const owner = addr();
    for (let i = 0; i < FAILURES_PER_ACCOUNT_AND_ADDRESS; i++) await attempt(email, 'wrong', attacker);
    for (let round = 0; round < 3; round++) {
      await rewind(15);
      expect(await attempt(email, 'wrong', attacker)).toEqual({ ok: false });
      expect({ round, owner: (await attempt(email, RIGHT, owner)).ok }).toEqual({ round, owner: true });
    }
    // Even from the attacker's own address, a refilled bucket lets the right password in.
    expect(await attempt(email, RIGHT, attacker)).toMatchObject({ ok: true });
  });

  it('`user-unlock` clears the account’s buckets for every address', async () => {
    const { email } = await staffUser();
    const [a, b] = [addr(), addr()];
    for (const address of [a, b]) {
      for (let i = 0; i < FAILURES_PER_ACCOUNT_AND_ADDRESS; i++) await attempt(email, 'wrong', address);
      expect(await attempt(email, RIGHT, address)).toEqual({ ok: false });
    }
    expect(await unlockUser({ email: email.toUpperCase() })).toEqual({ unlocked: true });
    expect(await attempt(email, RIGHT, a)).toMatchObject({ ok: true });
    expect(await attempt(email, RIGHT, b)).toMatchObject({ ok: true });
    await expect(unlockUser({ email: 'nobody-at-all@example.com' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('verifies at most the budget when many wrong attempts from one address arrive at once', async () => {
    const { email, userId } = await staffUser();
    const a = addr();
    const results = await Promise.all(Array.from({ length: 20 }, () => attempt(email, 'wrong', a)));
    expect(results.every((r) => !r.ok)).toBe(true);
    expect(realVerifications()).toBeLessThanOrEqual(FAILURES_PER_ACCOUNT_AND_ADDRESS);
    const { rows } = await admin.query(`select min(tokens) as min from rate_buckets where bucket like $1`, [
      `sign-in:user:${userId}:addr:%`,
    ]);
    expect(Number(rows[0].min)).toBeGreaterThanOrEqual(0);
    expect(Number(rows[0].min)).toBeLessThan(1);
  });

  it('never lets failures for unknown accounts refuse a known account’s right password from that address', async () => {
    const { email } = await staffUser();
    const shared = addr(); // a hotel's Wi-Fi: a guest and the desk behind one address
    for (let batch = 0; batch < 7; batch++) {
      await Promise.all(
        Array.from({ length: 15 }, () => attempt(`nobody-${randomUUID()}@example.com`, 'guess', shared)),
      );
    }
    // 105 unknown emails later, the desk still signs in from that address…
    expect(await attempt(email, RIGHT, shared)).toMatchObject({ ok: true });
    // …while the address's budget for unknown accounts is spent.
    const bucket = `sign-in:addr:unknown:${createHash('sha256').update(shared).digest('hex').slice(0, 32)}`;
    const { rows } = await admin.query(`select tokens from rate_buckets where bucket = $1`, [bucket]);
    expect(Number(rows[0]?.tokens)).toBeLessThan(1);
  });

  it('slows down one address that fails across many known accounts, and no other; the refusal is audited', async () => {
    const { email, userId, tenantIds } = await staffUser();
    const stuffer = addr();
    // As if 100 known accounts had failed from this address (each account's own five are apart).
    const bucket = `sign-in:addr:${createHash('sha256').update(stuffer).digest('hex').slice(0, 32)}`;
    await admin.query(
      `insert into rate_buckets (bucket, tokens, updated_at) values ($1, 0, clock_timestamp())
       on conflict (bucket) do update set tokens = 0, updated_at = clock_timestamp()`,
      [bucket],
    );
    expect(await attempt(email, RIGHT, stuffer)).toEqual({ ok: false });
    expect(await attempt(email, RIGHT, stuffer)).toEqual({ ok: false });
    expect(await attempt(email, RIGHT, addr())).toMatchObject({ ok: true });
    const { rows } = await admin.query(
      `select action, subject_id, reason, metadata->>'limit' as limit from audit_events where tenant_id = $1 and action like 'user.%'`,
      [tenantIds[0]],
    );
    expect(rows).toEqual([
      { action: 'user.sign_in_throttled', subject_id: userId, reason: 'too_many_failed_sign_ins', limit: 'address' },
    ]);
  });

  it('audits throttling once per account, address and refill window in each of the account’s tenants, not each failure', async () => {
    const tenants = [(await createTenant({ name: 'Audit A' })).id, (await createTenant({ name: 'Audit B' })).id];
    const { email, userId } = await staffUser(tenants);
    const a = addr();
    for (let i = 0; i < 30; i++) await attempt(email, 'wrong', a);
    const { rows } = await admin.query(
      `select tenant_id, action, subject_id, reason from audit_events where tenant_id = any($1::uuid[]) and action like 'user.%' order by tenant_id`,
      [tenants],
    );
    expect(rows).toEqual(
      [...tenants].sort().map((tenantId) => ({
        tenant_id: tenantId,
        action: 'user.sign_in_throttled',
        subject_id: userId,
        reason: 'too_many_failed_sign_ins',
      })),
    );
    // A second address is a second pair: one more row per tenant.
    const second = addr();
    for (let i = 0; i < 10; i++) await attempt(email, 'wrong', second);
    const { rows: after } = await admin.query(
      `select count(*)::int as n from audit_events where tenant_id = any($1::uuid[]) and action like 'user.%'`,
      [tenants],
    );
    expect(after[0].n).toBe(4);
  });
});
