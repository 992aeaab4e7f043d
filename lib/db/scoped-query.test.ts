import { loginClient } from '../../tooling/testing/fixtures';
import { describe, expect, it } from 'vitest';
import { appPool } from './client';
import { scopedQuery, sqlLiteral } from './tx';
import { createApiKey, revokeApiKey } from '../auth/api-keys';
import { adminClient, createTenantGraph, TEST_ACTOR } from '../../tooling/testing/fixtures';

describe('scopedQuery: one transaction in one round trip', () => {
  it('keeps the role and tenant (SET LOCAL) across the statements of one block, and drops them after it', async () => {
    const admin = await adminClient();
    const a = await createTenantGraph(admin, 'Scoped A');
    const b = await createTenantGraph(admin, 'Scoped B');
    const [who, rooms, tx] = await scopedQuery<Record<string, string>>(
      { role: 'app_authenticated', tenantId: a.tenantId },
      [
        `select current_user as role, current_setting('app.tenant_id') as tenant`,
        // Row-level security sees the tenant of the first statement: B's rooms are not there.
        `select tenant_id from rooms where tenant_id in (${sqlLiteral(a.tenantId, 'uuid')}, ${sqlLiteral(b.tenantId, 'uuid')})`,
        `select txid_current_if_assigned() as a, now()::text as started`,
      ],
    );
    expect(who).toEqual([{ role: 'app_authenticated', tenant: a.tenantId }]);
    expect(rooms!.length).toBeGreaterThan(0);
    expect(new Set(rooms!.map((r) => r.tenant_id))).toEqual(new Set([a.tenantId]));
    expect(tx).toHaveLength(1);
    // Every idle connection of the pool is the login role again, with no tenant.
    const after = await Promise.all(
      Array.from({ length: 8 }, () =>
        appPool().query(`select current_user as role, current_setting('app.tenant_id', true) as tenant`),
      ),
    );
    for (const result of after) expect(result.rows[0]).toMatchObject({ role: 'app_login' });
    for (const result of after) expect(result.rows[0].tenant ?? '').toBe('');
    await admin.end();
  });

  it('is all or nothing: a later statement failing undoes the earlier ones', async () => {
    const admin = await adminClient();
    const bucket = `scoped-test-${Date.now()}`;
    await expect(
      scopedQuery({ role: 'app_service' }, [
        `select * from app_rate_lease(${sqlLiteral(bucket, 'text')}, 5, 1, 1)`,
        'select 1 / 0',
      ]),
    ).rejects.toBeTruthy();
    const { rows } = await admin.query('select count(*)::int as n from rate_buckets where bucket = $1', [bucket]);
    expect(rows[0].n).toBe(0);
    await admin.end();
  });

  it('writes values as literals that cannot break out of the statement', async () => {
    const attack = `x'); delete from rate_buckets; select ('`;
    const results = await scopedQuery<{ v: string }>({ role: 'app_service' }, [
      `select ${sqlLiteral(attack, 'text')} as v`,
    ]);
    expect(results).toEqual([[{ v: attack }]]);
    // Backslashes too, and on a server whose strings still read them as escapes.
    const slashed = `\\'); delete from rate_buckets; select ('\\`;
    const login = await loginClient();
    try {
      await login.query('set standard_conforming_strings = off');
      const { rows } = await login.query<{ v: string }>(`select ${sqlLiteral(slashed, 'text')} as v`);
      expect(rows).toEqual([{ v: slashed }]);
    } finally {
      await login.end();
    }
    expect(() => sqlLiteral('a\0b', 'text')).toThrow();
    expect(() => sqlLiteral('a', 'text; drop table x')).toThrow();
  });

  it('with an API key: refuses (401) a revoked key, and a key of another tenant', async () => {
    const admin = await adminClient();
    const a = await createTenantGraph(admin, 'Scoped key A');
    const b = await createTenantGraph(admin, 'Scoped key B');
    const key = await createApiKey({ tenantId: a.tenantId, name: 'k', actor: TEST_ACTOR });
    const ok = await scopedQuery({ role: 'app_authenticated', tenantId: a.tenantId, apiKeyId: key.id }, [
      'select 1 as one',
    ]);
    expect(ok).toEqual([[{ one: 1 }]]);
    await expect(
      scopedQuery({ role: 'app_authenticated', tenantId: b.tenantId, apiKeyId: key.id }, ['select 1']),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    await revokeApiKey({ tenantId: a.tenantId, apiKeyId: key.id, actor: TEST_ACTOR });
    await expect(
      scopedQuery({ role: 'app_service', tenantId: a.tenantId, apiKeyId: key.id }, ['select 1']),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    await admin.end();
  });
});
