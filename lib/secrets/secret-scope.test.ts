import { describe, expect, it } from 'vitest';
import { asRole, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { setProviderSecret } from './provider-secrets';
import { currentKeyring } from './data-key';

// Inside a transaction scoped to one tenant, the secret functions refuse any other tenant's id (42501).

describe('the secret functions under a tenant scope', () => {
  it('refuse to read or write another tenant’s secrets, and still serve their own tenant', async () => {
    const a = await createBookableTenant();
    const b = await createBookableTenant();
    await setProviderSecret({ tenantId: b.tenantId, provider: 'cal', value: 'b-secret', actor: TEST_ACTOR });
    await setProviderSecret({ tenantId: a.tenantId, provider: 'cal', value: 'a-secret', actor: TEST_ACTOR });
    const { current, keys } = currentKeyring();
    const inScopeOf = (tenantId: string, sql: string, params: unknown[]) =>
      asRole('app_service', tenantId, sql, params);
    const ring = JSON.stringify(keys);
    expect(await inScopeOf(a.tenantId, `select app_secret_get($1, 'cal', $2::jsonb) as v`, [b.tenantId, ring])).toEqual(
      { code: '42501' },
    );
    expect(
      await inScopeOf(a.tenantId, `select app_secret_set($1, 'cal', 'taken over', $2, $3)`, [
        b.tenantId,
        current.key,
        current.version,
      ]),
    ).toEqual({ code: '42501' });
    expect(await inScopeOf(a.tenantId, `select app_secret_get($1, 'cal', $2::jsonb) as v`, [a.tenantId, ring])).toEqual(
      { rows: [{ v: 'a-secret' }] },
    );
    expect(await inScopeOf(b.tenantId, `select app_secret_get($1, 'cal', $2::jsonb) as v`, [b.tenantId, ring])).toEqual(
      { rows: [{ v: 'b-secret' }] },
    );
  });
});
