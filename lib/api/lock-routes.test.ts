import { describe, expect, it } from 'vitest';
import { createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { withSimulatorProvider } from '../../tooling/testing/lock-simulator';
import { createApiKey } from '../auth/api-keys';
import { pollLockRecords } from '../locks/poll-lock-records';
import { routeHandler } from './router';

// POST /api/v1/locks/{id}/unlock and GET /api/v1/entries as API.md writes them, over the router, against the
// simulator (TTLock's gateway unlock): 202 with the request's status, 409 not_supported, the entry it causes.
const env = withSimulatorProvider();
const unlock = routeHandler('POST', '/api/v1/locks/{id}/unlock');
const entries = routeHandler('GET', '/api/v1/entries');

async function tenantWithDoor() {
  const tenant = await createBookableTenant({ rooms: 1, name: 'Routes' });
  const { key, id: apiKeyId } = await createApiKey({ tenantId: tenant.tenantId, name: 'pms', actor: TEST_ACTOR });
  const { rows } = await env.admin.query<{ id: string; device_id: string }>(
    `update locks set created_at = now() - interval '1 day' where tenant_id = $1 returning id, device_id`,
    [tenant.tenantId],
  );
  return { ...tenant, apiKey: key, apiKeyId, lockId: rows[0]!.id, deviceId: rows[0]!.device_id };
}

function post(apiKey: string, lockId: string, body: unknown) {
  const request = new Request(`http://test/api/v1/locks/${lockId}/unlock`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return unlock(request, { params: Promise.resolve({ id: lockId }) });
}

describe('POST /api/v1/locks/{id}/unlock', () => {
  it('answers 202 with the request and its status, audited door.unlocked_remotely by the API key', async () => {
    const t = await tenantWithDoor();
    const response = await post(t.apiKey, t.lockId, { reason: 'Guest locked out' });
    expect(response.status).toBe(202);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const { data } = await response.json();
    expect(data).toEqual({ id: expect.any(String), lockId: t.lockId, status: 'done' });
    const audit = await env.admin.query(
      `select actor_type, actor_id, reason, metadata->>'status' as status from audit_events
        where tenant_id = $1 and action = 'door.unlocked_remotely'`,
      [t.tenantId],
    );
    expect(audit.rows).toEqual([
      { actor_type: 'api_key', actor_id: t.apiKeyId, reason: 'Guest locked out', status: 'done' },
    ]);
    // The lock's record of it becomes an entry, linked to the request (an API key is no person: userId null).
    await pollLockRecords({ tenantId: t.tenantId, lockId: t.lockId });
    const listed = await entries(
      new Request(`http://test/api/v1/entries?roomId=${t.roomIds[0]}`, {
        headers: { authorization: `Bearer ${t.apiKey}` },
      }),
      { params: Promise.resolve({}) },
    );
    expect(listed.status).toBe(200);
    expect((await listed.json()).data).toMatchObject([
      { lockId: t.lockId, kind: 'unlocked', method: 'app', keyId: null, userId: null },
    ]);
    const opened = await env.admin.query(
      `select actor_type, actor_id from audit_events where tenant_id = $1 and action = 'door.opened'`,
      [t.tenantId],
    );
    expect(opened.rows).toEqual([{ actor_type: 'api_key', actor_id: t.apiKeyId }]);
  });

  it('answers 202 failed for a provider error, 409 not_supported for a lock that cannot', async () => {
    const t = await tenantWithDoor();
    await env.sim.control('/_control/faults', { locks: { [t.deviceId]: { offline: 'gateway' } } });
    const failed = await post(t.apiKey, t.lockId, { reason: 'Cleaning' });
    expect(failed.status).toBe(202);
    expect((await failed.json()).data).toMatchObject({ lockId: t.lockId, status: 'failed' });
    await env.sim.control('/_control/faults', { locks: { [t.deviceId]: { hasGateway: false } } });
    const refused = await post(t.apiKey, t.lockId, { reason: 'Cleaning' });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatchObject({ code: 'not_supported', message: expect.any(String) });
  });

  it('refuses a missing reason (400), another tenant’s lock (404), and too many at once (429)', async () => {
    const t = await tenantWithDoor();
    const other = await tenantWithDoor();
    const count = async () =>
      (await env.admin.query(`select count(*)::int as n from remote_unlocks where tenant_id = $1`, [t.tenantId]))
        .rows[0].n;
    const blank = await post(t.apiKey, t.lockId, { reason: ' ' });
    expect(blank.status).toBe(400);
    expect((await blank.json()).error).toMatchObject({ code: 'invalid_request', issues: expect.any(Array) });
    expect((await post(t.apiKey, t.lockId, {})).status).toBe(400);
    expect((await post(t.apiKey, other.lockId, { reason: 'probe' })).status).toBe(404);
    expect(await count()).toBe(0);
    const answers = await Promise.all([1, 2, 3, 4].map(() => post(t.apiKey, t.lockId, { reason: 'Again' })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 202, 429]);
    const limited = answers.find((a) => a.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await count()).toBe(3);
  });
});
