import { describe, expect, it } from 'vitest';
import { setProviderSecret } from '../secrets/provider-secrets';
import { registerLockProvider } from '../locks/tenant-provider';
import { fakeLockProvider, tenantOnProvider, withFakeSeam } from '../../tooling/testing/fake-lock-provider';
import { TEST_ACTOR } from '../../tooling/testing/fixtures';
import { checkTenantLockProvider, enqueueTenantProviderChecks } from './check-health';

// Health is checked per tenant provider (issue 28, item 11 d): a tenant on its own Seam or TTLock
// account gets its provider asked with its own credentials, and an incident of its own when that
// provider does not answer or refuses them — not only the install's default provider.
const env = withFakeSeam();

async function openProviderIncidents(tenantId: string) {
  const { rows } = await env.admin.query(
    `select condition_key, kind, severity, detail from incidents where tenant_id = $1 and resolved_at is null`,
    [tenantId],
  );
  return rows as { condition_key: string; kind: string; severity: string; detail: Record<string, unknown> }[];
}

describe('each tenant’s own lock provider', () => {
  it('is checked with its own credentials: one incident per tenant whose provider refuses them, resolved when it answers', async () => {
    const refused = await tenantOnProvider({ provider: 'seam' });
    const fine = await tenantOnProvider({ provider: 'seam' });
    await setProviderSecret({ tenantId: refused.tenantId, provider: 'seam', value: 'revoked_key', actor: TEST_ACTOR });
    const dead = fakeLockProvider();
    dead.provider.checkHealth = async () => ({ ok: false, code: 'unauthorized', retryable: false });
    registerLockProvider('seam', ({ apiKey }) => (apiKey === 'revoked_key' ? dead.provider : env.fake.provider));

    const checkBoth = async () => {
      await checkTenantLockProvider({ tenantId: refused.tenantId, provider: 'seam' });
      await checkTenantLockProvider({ tenantId: fine.tenantId, provider: 'seam' });
    };
    await checkBoth();
    await checkBoth();
    expect(await openProviderIncidents(refused.tenantId)).toMatchObject([
      {
        condition_key: 'health:lock_provider:seam',
        kind: 'health_lock_provider',
        severity: 'critical',
        detail: { provider: 'seam', lastCode: 'unauthorized' },
      },
    ]);
    expect(await openProviderIncidents(fine.tenantId)).toEqual([]);
    // Not the install's incident: the other tenants' staff do not see it.
    const { rows } = await env.admin.query(
      `select count(*)::int as n from incidents where tenant_id is null and condition_key like 'health:lock_provider%'
          and resolved_at is null and opened_at > now() - interval '1 minute'`,
    );
    expect(rows[0].n).toBe(0);

    await setProviderSecret({ tenantId: refused.tenantId, provider: 'seam', value: 'new_key', actor: TEST_ACTOR });
    await checkBoth();
    expect(await openProviderIncidents(refused.tenantId)).toEqual([]);
  });

  it('are each given a job of their own by the cron, queued once however often it runs', async () => {
    const a = await tenantOnProvider({ provider: 'seam' });
    const b = await tenantOnProvider({ provider: 'seam' });
    await enqueueTenantProviderChecks();
    await enqueueTenantProviderChecks();
    const { rows } = await env.admin.query(
      `select j.payload->>'tenantId' as tenant_id, j.payload->>'provider' as provider
         from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'check_tenant_provider' and j.payload->>'tenantId' = any ($1)
        order by 1`,
      [[a.tenantId, b.tenantId]],
    );
    expect(rows).toEqual(
      [a.tenantId, b.tenantId].sort().map((tenantId) => ({ tenant_id: tenantId, provider: 'seam' })),
    );
  });
});
