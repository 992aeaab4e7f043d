import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setProviderSecret } from '../secrets/provider-secrets';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { startLockSimulator, type LockSimulator } from '../../tooling/testing/lock-simulator';
import { setLockProvider } from './locks';
import { lockProviderFor } from './tenant-provider';

// Issue 28, item 2: a tenant's own TTLock credentials. (a) A token is never reused for credentials
// that did not earn it, nor across tenants. (b) The tenant-set endpoint reaches only public https
// addresses (unless ALLOW_PRIVATE_FETCH=1), follows no redirect, and every transport failure reads
// as one code, so nothing about the address behind it leaks.

let admin: pg.Client;
let sim: LockSimulator;
const ctx = { correlationId: 'credentials-test' };
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

/** A tenant on TTLock with these credentials stored as its `ttlock` secret, as it was before saving checked them. */
async function tenantOnTtlock(credentials: Record<string, string>) {
  const { tenantId } = await createBookableTenant({ rooms: 0 });
  await setLockProvider({ tenantId, provider: 'ttlock', actor: TEST_ACTOR });
  // Straight into the table's functions: an endpoint stored before saving validated it.
  await admin.query(`select app_secret_set($1::uuid, 'ttlock', $2, $3, $4::int)`, [
    tenantId,
    JSON.stringify(credentials),
    process.env.APP_DATA_KEY,
    Number(process.env.APP_DATA_KEY_VERSION ?? 1),
  ]);
  return tenantId;
}

async function listAs(tenantId: string) {
  const provider = await lockProviderFor(tenantId, 'ttlock');
  if (!provider.ok) return provider;
  return provider.data.listDevices(ctx);
}

const tokenCalls = async () => (await sim.calls()).filter((c) => c.endpoint === '/oauth2/token');

describe('the token cache', () => {
  it('never hands the first tenant’s token to a second one that typed its client id and username with a wrong secret and password', async () => {
    process.env.ALLOW_PRIVATE_FETCH = '1';
    await sim.control('/_control/reset', {});
    const owner = await tenantOnTtlock({ ...sim.account, endpoint: sim.url });
    const intruder = await tenantOnTtlock({
      ...sim.account,
      clientSecret: 'wrong-secret',
      password: 'wrong-password',
      endpoint: sim.url,
    });
    expect(await listAs(owner)).toMatchObject({ ok: true });
    expect(await listAs(intruder)).toEqual({ ok: false, code: 'invalid_client', retryable: false });
    // The intruder asked TTLock for a token of its own (and was refused); it never called the API.
    // (Listing devices also reads the account's gateways, with the same token: left out here.)
    const calls = (await sim.calls()).filter((c) => !c.endpoint.startsWith('/v3/gateway/'));
    expect(calls.map((c) => [c.endpoint, c.outcome])).toEqual([
      ['/oauth2/token', 'ok'],
      ['/v3/lock/list', 'ok'],
      ['/oauth2/token', 'error'],
    ]);
  });

  it('gives two tenants with the same right credentials a token each', async () => {
    process.env.ALLOW_PRIVATE_FETCH = '1';
    await sim.control('/_control/reset', {});
    const first = await tenantOnTtlock({ ...sim.account, endpoint: sim.url });
    const second = await tenantOnTtlock({ ...sim.account, endpoint: sim.url });
    expect(await listAs(first)).toMatchObject({ ok: true });
    expect(await listAs(second)).toMatchObject({ ok: true });
    expect(await listAs(first)).toMatchObject({ ok: true });
    expect((await tokenCalls()).map((c) => c.outcome)).toEqual(['ok', 'ok']);
  });
});

/** A loopback HTTP server that counts what reaches it and answers with `answer`. */
async function server(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  let hits = 0;
  const s = http.createServer((request, response) => {
    hits += 1;
    answer(request, response);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    port: (s.address() as AddressInfo).port,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  };
}

describe('the tenant’s TTLock endpoint when used', () => {
  it('reaches no private, loopback or plain-http address without ALLOW_PRIVATE_FETCH, and says only “unreachable”', async () => {
    delete process.env.ALLOW_PRIVATE_FETCH;
    const target = await server((_req, res) => res.end('{}'));
    try {
      for (const endpoint of [target.url, `https://127.0.0.1:${target.port}`, `https://localhost:${target.port}`]) {
        const tenantId = await tenantOnTtlock({ ...sim.account, endpoint });
        expect({ endpoint, result: await listAs(tenantId) }).toEqual({
          endpoint,
          result: { ok: false, code: 'provider_unreachable', retryable: true },
        });
      }
      expect(target.hits()).toBe(0);
    } finally {
      await target.close();
    }
  });

  it('follows no redirect: the answer is “unreachable” and the place it points to is never asked', async () => {
    process.env.ALLOW_PRIVATE_FETCH = '1';
    await sim.control('/_control/reset', {});
    const redirect = await server((_req, res) => {
      res.writeHead(307, { location: `${sim.url}/oauth2/token` });
      res.end();
    });
    try {
      const tenantId = await tenantOnTtlock({ ...sim.account, endpoint: redirect.url });
      expect(await listAs(tenantId)).toEqual({ ok: false, code: 'provider_unreachable', retryable: true });
      expect(redirect.hits()).toBe(1);
      expect(await sim.calls()).toEqual([]);
    } finally {
      await redirect.close();
    }
  });

  it('answers one code for a refused port, a name that does not resolve, a timeout and a failed TLS handshake', async () => {
    process.env.ALLOW_PRIVATE_FETCH = '1';
    const closed = await server(() => undefined);
    const closedPort = closed.port;
    await closed.close();
    const silent = await server(() => undefined); // takes the request and never answers
    const plain = await server((_req, res) => res.end('not tls'));
    try {
      const endpoints = [
        `http://127.0.0.1:${closedPort}`,
        'https://no-such-host.invalid',
        silent.url,
        `https://127.0.0.1:${plain.port}`,
      ];
      const results = [];
      for (const endpoint of endpoints) {
        const tenantId = await tenantOnTtlock({ ...sim.account, endpoint });
        const provider = await lockProviderFor(tenantId, 'ttlock');
        expect(provider.ok).toBe(true);
        if (!provider.ok) continue;
        results.push(await provider.data.listDevices(ctx));
      }
      expect(results).toEqual(endpoints.map(() => ({ ok: false, code: 'provider_unreachable', retryable: true })));
    } finally {
      await Promise.all([silent.close(), plain.close()]);
    }
  }, 60_000);
});

describe('saving TTLock credentials', () => {
  const refusals = [
    ['plain http', 'http://api.example.com'],
    ['loopback', 'https://127.0.0.1'],
    ['a name for loopback', 'https://localhost'],
    ['private', 'https://10.1.2.3'],
    ['private 172.16/12', 'https://172.20.0.1'],
    ['private 192.168/16', 'https://192.168.1.1'],
    ['link-local (cloud metadata)', 'https://169.254.169.254'],
    ['unspecified', 'https://0.0.0.0'],
    ['a decimal loopback', 'https://2130706433'],
    ['IPv6 loopback', 'https://[::1]'],
    ['IPv6 link-local', 'https://[fe80::1]'],
    ['IPv6 unique local', 'https://[fd00::1]'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]'],
    ['IPv4-mapped metadata (hex)', 'https://[::ffff:a9fe:a9fe]'],
    ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]'],
    ['credentials in the address', 'https://user:pass@api.example.com'],
    ['not a URL', 'api.example.com'],
  ] as const;
  for (const [what, endpoint] of refusals) {
    it(`refuses an endpoint that is ${what}, and stores nothing`, async () => {
      delete process.env.ALLOW_PRIVATE_FETCH;
      const { tenantId } = await createBookableTenant({ rooms: 0 });
      const value = JSON.stringify({ ...sim.account, endpoint });
      await expect(setProviderSecret({ tenantId, provider: 'ttlock', value, actor: TEST_ACTOR })).rejects.toMatchObject(
        {
          code: 'invalid_request',
          details: { issues: [{ path: 'endpoint' }] },
        },
      );
      const { rows } = await admin.query(`select count(*)::int as n from provider_secrets where tenant_id = $1`, [
        tenantId,
      ]);
      expect(rows[0].n).toBe(0);
    });
  }

  it('takes the simulator’s loopback address when the operator allows private fetches', async () => {
    process.env.ALLOW_PRIVATE_FETCH = '1';
    const { tenantId } = await createBookableTenant({ rooms: 0 });
    const value = JSON.stringify({ ...sim.account, endpoint: sim.url });
    expect(await setProviderSecret({ tenantId, provider: 'ttlock', value, actor: TEST_ACTOR })).toMatchObject({
      keyVersion: expect.any(Number),
    });
  });
});
