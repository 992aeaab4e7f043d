import { describe, expect, it } from 'vitest';
import { adminClient, createTenantGraph } from '../../tooling/testing/fixtures';
import { authenticateApiKey, createApiKey, hashApiKey } from './api-keys';
import { routeHandler } from '../api/router';

const listRooms = routeHandler('GET', '/api/v1/rooms');

const SYSTEM = { type: 'system' as const, id: null, label: 'test' };
const noParams = { params: Promise.resolve({}) };

describe('API keys', () => {
  it('store only a hash and a visible prefix, and resolve to their own tenant', async () => {
    const admin = await adminClient();
    const a = await createTenantGraph(admin, 'Key A');
    const created = await createApiKey({ tenantId: a.tenantId, name: 'integration', actor: SYSTEM });
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const { rows } = await admin.query('select prefix, secret_hash from api_keys where id = $1', [created.id]);
    expect(rows[0].prefix).toBe(created.prefix);
    expect(Buffer.compare(rows[0].secret_hash, Buffer.from(hashApiKey(created.key)))).toBe(0);
    const { rows: text } = await admin.query(
      `select count(*)::int as n from api_keys where row_to_json(api_keys)::text like '%' || $1 || '%'`,
      [created.key],
    );
    expect(text[0].n).toBe(0);
    const { rows: audit } = await admin.query(`select action, subject_id from audit_events where subject_id = $1`, [
      created.id,
    ]);
    expect(audit).toEqual([{ action: 'api_key.created', subject_id: created.id }]);

    expect(await authenticateApiKey(created.key)).toEqual({
      apiKeyId: created.id,
      tenantId: a.tenantId,
      name: 'integration',
    });
    expect(await authenticateApiKey(`${created.key}x`)).toBeNull();
    await admin.query('update api_keys set revoked_at = now() where id = $1', [created.id]);
    expect(await authenticateApiKey(created.key)).toBeNull();
    await admin.end();
  });

  it('touch last_used_at at most once a minute', async () => {
    const admin = await adminClient();
    const a = await createTenantGraph(admin, 'Key touch');
    const created = await createApiKey({ tenantId: a.tenantId, name: 'touch', actor: SYSTEM });
    await authenticateApiKey(created.key);
    const first = (await admin.query('select last_used_at from api_keys where id = $1', [created.id])).rows[0]
      .last_used_at;
    expect(first).not.toBeNull();
    await authenticateApiKey(created.key);
    expect(
      (await admin.query('select last_used_at from api_keys where id = $1', [created.id])).rows[0].last_used_at,
    ).toEqual(first);
    await admin.query(`update api_keys set last_used_at = now() - interval '2 minutes' where id = $1`, [created.id]);
    await authenticateApiKey(created.key);
    const third = (await admin.query('select last_used_at from api_keys where id = $1', [created.id])).rows[0]
      .last_used_at;
    expect(third.getTime()).toBeGreaterThan(first.getTime() - 1);
    await admin.end();
  });
});

describe('GET /api/v1/rooms', () => {
  it("answers with the key's own tenant's rooms only, and 401 without a valid key", async () => {
    const admin = await adminClient();
    const a = await createTenantGraph(admin, 'Rooms A');
    await createTenantGraph(admin, 'Rooms B');
    await admin.end();
    const { key } = await createApiKey({ tenantId: a.tenantId, name: 'rooms', actor: SYSTEM });

    const ok = await listRooms(
      new Request('http://test/api/v1/rooms', { headers: { authorization: `Bearer ${key}` } }),
      noParams,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBeTruthy();
    expect(await ok.json()).toEqual({
      data: [{ id: a.roomId, label: '101', facilityId: a.facilityId }],
      nextCursor: null,
    });

    for (const authorization of [undefined, 'Bearer uok_nope', `Basic ${key}`]) {
      const denied = await listRooms(
        new Request('http://test/api/v1/rooms', { headers: authorization ? { authorization } : {} }),
        noParams,
      );
      expect(denied.status).toBe(401);
      expect(await denied.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
  });
});

describe('the API rate limit', () => {
  it('is a token bucket allowing a burst of 300, then refusing until it refills at 100 a second', async () => {
    const admin = await adminClient();
    const bucket = `test:${Date.now()}`;
    const burst = await admin.query(
      `select count(*) filter (where t.allowed)::int as allowed, count(*) filter (where not t.allowed)::int as refused
       from generate_series(1, 400) g, lateral app_rate_take($1 || repeat('', g), 300, 100) t`,
      [bucket],
    );
    expect(burst.rows[0].allowed).toBeGreaterThanOrEqual(300);
    expect(burst.rows[0].allowed).toBeLessThan(330);
    expect(burst.rows[0].refused).toBeGreaterThan(70);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await admin.query(
      `select count(*) filter (where t.allowed)::int as allowed from generate_series(1, 150) g, lateral app_rate_take($1 || repeat('', g), 300, 100) t`,
      [bucket],
    );
    expect(later.rows[0].allowed).toBeGreaterThanOrEqual(100);
    expect(later.rows[0].allowed).toBeLessThan(140);
    await admin.end();
  });

  it('answers 429 with retry-after once a key has spent its bucket', async () => {
    const admin = await adminClient();
    const a = await createTenantGraph(admin, 'Burst');
    const { id, key } = await createApiKey({ tenantId: a.tenantId, name: 'burst', actor: SYSTEM });
    const request = () =>
      listRooms(new Request('http://test/api/v1/rooms', { headers: { authorization: `Bearer ${key}` } }), noParams);
    expect((await request()).status).toBe(200);
    await admin.query(`update rate_buckets set tokens = -50, updated_at = clock_timestamp() where bucket = $1`, [
      `api:${id}`,
    ]);
    const limited = await request();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await limited.json()).error.code).toBe('rate_limited');
    await admin.end();
  });
});

describe('revoking an API key', () => {
  it('stops it at once, is audited, and cannot touch another tenant’s key', async () => {
    const admin = await adminClient();
    const a = await createTenantGraph(admin, 'Revoke A');
    const b = await createTenantGraph(admin, 'Revoke B');
    const { revokeApiKey } = await import('./api-keys');
    const created = await createApiKey({ tenantId: a.tenantId, name: 'old integration', actor: SYSTEM });
    await expect(revokeApiKey({ tenantId: b.tenantId, apiKeyId: created.id, actor: SYSTEM })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await authenticateApiKey(created.key)).not.toBeNull();
    await revokeApiKey({ tenantId: a.tenantId, apiKeyId: created.id, actor: SYSTEM });
    await revokeApiKey({ tenantId: a.tenantId, apiKeyId: created.id, actor: SYSTEM });
    expect(await authenticateApiKey(created.key)).toBeNull();
    const { rows } = await admin.query(
      `select count(*)::int as n from audit_events where subject_id = $1 and action = 'api_key.revoked'`,
      [created.id],
    );
    expect(rows[0].n).toBe(1);
    await admin.end();
  });
});
