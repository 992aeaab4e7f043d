import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getProviderSecret } from '@/lib/secrets/provider-secrets';
import { createStaffUser } from '@/lib/staff/create-staff-user';
import { adminClient, createBookableTenant } from '@/tooling/testing/fixtures';
import { startLockSimulator, type LockSimulator } from '@/tooling/testing/lock-simulator';

// Issue 28, item 1: a manager chooses the tenant's own lock provider and enters its credentials in
// the browser. The action, the domain, the database and the TTLock client are real (against the
// simulator over HTTP); only the Next.js request is replaced, as in actions.test.ts.
const request = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock('server-only', () => ({}));
vi.mock('next-auth', () => ({
  getServerSession: async () => (request.userId ? { userId: request.userId } : null),
}));
vi.mock('next/headers', () => ({
  cookies: async () => ({ get: () => undefined, set: () => {} }),
  headers: async () => new Headers({ 'accept-language': 'en' }),
}));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { connectLockProviderAction, testLockProviderAction } = await import('@/app/manage/locks/actions');

let admin: pg.Client;
let sim: LockSimulator;
const saved = process.env.ALLOW_PRIVATE_FETCH;
beforeAll(async () => {
  admin = await adminClient();
  sim = await startLockSimulator();
});
afterAll(async () => {
  await sim.close();
  await admin.end();
});
afterEach(() => {
  if (saved === undefined) delete process.env.ALLOW_PRIVATE_FETCH;
  else process.env.ALLOW_PRIVATE_FETCH = saved;
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

async function tenantWithManager(role: 'manager' | 'front_desk' = 'manager') {
  const { tenantId } = await createBookableTenant({ rooms: 0 });
  const email = `${role}-${randomBytes(3).toString('hex')}@example.com`;
  const user = await createStaffUser({ tenantId, email, password: 'pw', role, name: 'M' });
  request.userId = user.id;
  return tenantId;
}

async function state(tenantId: string) {
  const { rows } = await admin.query(
    `select t.lock_provider::text as provider,
            (select count(*)::int from provider_secrets s where s.tenant_id = t.id) as secrets,
            (select array_agg(action order by occurred_at)::text[] from audit_events a
              where a.tenant_id = t.id and a.action in ('secret.set', 'lock_provider.set')) as audits
       from tenants t where t.id = $1`,
    [tenantId],
  );
  return rows[0] as { provider: string | null; secrets: number; audits: string[] | null };
}

const ttlockForm = (overrides: Record<string, string> = {}) =>
  form({
    provider: 'ttlock',
    clientId: sim.account.clientId,
    clientSecret: sim.account.clientSecret,
    username: sim.account.username,
    password: sim.account.password,
    endpoint: sim.url,
    ...overrides,
  });

describe('choosing a lock provider in the browser', () => {
  it('checks TTLock credentials with TTLock, then stores them encrypted and makes TTLock the tenant’s provider', async () => {
    process.env.ALLOW_PRIVATE_FETCH = '1';
    const tenantId = await tenantWithManager();
    const result = await connectLockProviderAction(null, ttlockForm());
    expect(result).toMatchObject({ ok: true, data: { provider: 'ttlock' } });
    // Nothing secret comes back, not even on success.
    expect(JSON.stringify(result)).not.toContain(sim.account.clientSecret);
    expect(JSON.stringify(result)).not.toContain(sim.account.password);
    expect(await state(tenantId)).toEqual({
      provider: 'ttlock',
      secrets: 1,
      audits: ['secret.set', 'lock_provider.set'],
    });
    expect(JSON.parse((await getProviderSecret({ tenantId, provider: 'ttlock' }))!)).toEqual({
      ...sim.account,
      endpoint: sim.url,
    });
  });

  it('says which credential TTLock refused (the account, the client), keeps the typed non-secret fields and stores nothing', async () => {
    process.env.ALLOW_PRIVATE_FETCH = '1';
    const tenantId = await tenantWithManager();
    const result = await connectLockProviderAction(null, ttlockForm({ password: 'not the password' }));
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_request',
        field: 'password',
        message:
          'TTLock refused the account: check the username and password of the TTLock app account that owns your locks.',
      },
      values: { provider: 'ttlock', clientId: sim.account.clientId, username: sim.account.username },
    });
    expect(JSON.stringify(result)).not.toContain('not the password');
    const client = await connectLockProviderAction(null, ttlockForm({ clientSecret: 'not the secret' }));
    expect(client).toMatchObject({
      ok: false,
      error: {
        field: 'clientSecret',
        message: 'TTLock refused the client id or client secret. Check both on TTLock’s open platform.',
      },
    });
    expect(await state(tenantId)).toEqual({ provider: null, secrets: 0, audits: null });
  });

  it('tests a connection without saving: works, refused in words, unreachable — and nothing is stored or audited', async () => {
    process.env.ALLOW_PRIVATE_FETCH = '1';
    const tenantId = await tenantWithManager();
    expect(await testLockProviderAction(null, ttlockForm())).toMatchObject({
      ok: true,
      data: { provider: 'ttlock', checked: true },
    });
    expect(await testLockProviderAction(null, ttlockForm({ password: 'wrong' }))).toMatchObject({
      ok: false,
      error: { field: 'password', message: expect.stringMatching(/^TTLock refused the account/) },
    });
    expect(await testLockProviderAction(null, ttlockForm({ endpoint: 'http://127.0.0.1:9' }))).toMatchObject({
      ok: false,
      error: { code: 'unavailable', message: 'Could not reach the provider. Check the address and try again later.' },
    });
    expect(await state(tenantId)).toEqual({ provider: null, secrets: 0, audits: null });
  });

  it('refuses a private endpoint before any request, and says “could not reach” for one that does not answer', async () => {
    delete process.env.ALLOW_PRIVATE_FETCH;
    let hits = 0;
    const target = http.createServer((_req, res) => {
      hits += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as AddressInfo).port;
    try {
      const tenantId = await tenantWithManager();
      const local = await connectLockProviderAction(null, ttlockForm({ endpoint: `https://127.0.0.1:${port}` }));
      expect(local).toMatchObject({
        ok: false,
        error: {
          field: 'endpoint',
          message: 'The API address must be a public https address (not a private, local or link-local one).',
        },
      });
      const plain = await connectLockProviderAction(null, ttlockForm({ endpoint: `http://127.0.0.1:${port}` }));
      expect(plain).toMatchObject({
        ok: false,
        error: { field: 'endpoint', message: 'The API address must start with https://.' },
      });
      expect(hits).toBe(0);

      process.env.ALLOW_PRIVATE_FETCH = '1';
      target.closeAllConnections();
      await new Promise<void>((resolve) => target.close(() => resolve()));
      const gone = await connectLockProviderAction(null, ttlockForm({ endpoint: `http://127.0.0.1:${port}` }));
      expect(gone).toMatchObject({
        ok: false,
        error: {
          code: 'unavailable',
          message: 'Could not reach the provider. Check the address and try again later.',
        },
      });
      expect(await state(tenantId)).toEqual({ provider: null, secrets: 0, audits: null });
    } finally {
      if (target.listening) await new Promise<void>((resolve) => target.close(() => resolve()));
    }
  });

  it('goes back to the install’s locks without credentials, and asks for every TTLock field', async () => {
    const tenantId = await tenantWithManager();
    expect(await connectLockProviderAction(null, form({ provider: 'simulator' }))).toMatchObject({
      ok: true,
      data: { provider: 'simulator' },
    });
    expect(await state(tenantId)).toEqual({ provider: 'simulator', secrets: 0, audits: ['lock_provider.set'] });
    const missing = await connectLockProviderAction(null, form({ provider: 'ttlock', clientId: 'x' }));
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', fieldErrors: { clientSecret: 'Fill in this field.' } },
    });
  });

  it('is not the front desk’s to change', async () => {
    const tenantId = await tenantWithManager('front_desk');
    expect(await connectLockProviderAction(null, form({ provider: 'simulator' }))).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await state(tenantId)).toEqual({ provider: null, secrets: 0, audits: null });
  });
});
