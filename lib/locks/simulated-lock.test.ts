import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../staff/create-tenant';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { addSimulatedLock, simulatedLocksOffered } from './simulated-lock';

// Decision 032: a tenant gives itself a simulated lock only where the install's lock account is the
// simulator on this machine.

let admin: pg.Client;
const saved = { vendor: process.env.LOCK_VENDOR, url: process.env.LOCK_VENDOR_URL };
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
afterEach(() => {
  for (const [name, value] of [
    ['LOCK_VENDOR', saved.vendor],
    ['LOCK_VENDOR_URL', saved.url],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

const locksOf = async (tenantId: string) =>
  (await admin.query(`select provider::text, account, device_id from locks where tenant_id = $1`, [tenantId])).rows;

describe('simulated locks', () => {
  it('are the tenant’s, audited, on an install running its simulator on this machine', async () => {
    delete process.env.LOCK_VENDOR;
    process.env.LOCK_VENDOR_URL = 'http://127.0.0.1:4100';
    expect(simulatedLocksOffered()).toBe(true);
    const tenantId = (await createTenant({ name: 'Simulated A' })).id;
    const first = await addSimulatedLock({ tenantId, actor: TEST_ACTOR });
    const second = await addSimulatedLock({ tenantId, actor: TEST_ACTOR });
    expect(first.deviceId).toMatch(/^\d{9,10}$/);
    expect(second.deviceId).not.toBe(first.deviceId);
    expect(await locksOf(tenantId)).toHaveLength(2);
    const { rows } = await admin.query(
      `select metadata ->> 'deviceId' as device from audit_events where tenant_id = $1 and action = 'lock.assigned'`,
      [tenantId],
    );
    expect(rows.map((r) => r.device).sort()).toEqual([first.deviceId, second.deviceId].sort());
  });

  it('are refused where the install’s lock account may be a real vendor’s, or the tenant drives its own', async () => {
    const tenantId = (await createTenant({ name: 'Simulated B' })).id;
    process.env.LOCK_VENDOR_URL = 'https://euapi.ttlock.com';
    expect(simulatedLocksOffered()).toBe(false);
    await expect(addSimulatedLock({ tenantId, actor: TEST_ACTOR })).rejects.toMatchObject({ code: 'not_available' });
    process.env.LOCK_VENDOR_URL = 'http://127.0.0.1:4100';
    process.env.LOCK_VENDOR = 'seam';
    await expect(addSimulatedLock({ tenantId, actor: TEST_ACTOR })).rejects.toMatchObject({ code: 'not_available' });
    delete process.env.LOCK_VENDOR;
    await admin.query(`update tenants set lock_provider = 'seam' where id = $1`, [tenantId]);
    await expect(addSimulatedLock({ tenantId, actor: TEST_ACTOR })).rejects.toMatchObject({ code: 'not_available' });
    expect(await locksOf(tenantId)).toEqual([]);
  });
});
