import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { startSeamFake } from '../../tooling/testing/seam-fake';
import { syncLocks } from './locks';
import './seam';

// A lock added by its device id from the tenant's own Seam account (Seam's own fake): only that device becomes the
// tenant's; an id the account does not list, the install's locks, or a device another tenant holds are refused and
// write nothing.
let admin: pg.Client;
let seam: Awaited<ReturnType<typeof startSeamFake>>;

beforeAll(async () => {
  admin = await adminClient();
  seam = await startSeamFake('bydevice');
});
afterAll(async () => {
  await seam.stop();
  await admin.end();
});

async function seamTenant() {
  const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
  await seam.useFor(tenantId);
  return tenantId;
}
const locksOf = async (tenantId: string) =>
  (await admin.query(`select device_id from locks where tenant_id = $1 order by device_id`, [tenantId])).rows.map(
    (r) => r.device_id,
  );

describe('adding a lock by its device id', () => {
  it('imports that one device of the tenant’s own account, and refuses an id the account does not list', async () => {
    const tenantId = await seamTenant();
    const added = await syncLocks({ tenantId, actor: TEST_ACTOR, deviceId: 'august_device_1' });
    expect(added).toMatchObject({ imported: 1, locks: [{ deviceId: 'august_device_1', provider: 'seam' }] });
    expect(await locksOf(tenantId)).toEqual(['august_device_1']);
    // Again: nothing new, the same lock.
    expect(await syncLocks({ tenantId, actor: TEST_ACTOR, deviceId: 'august_device_1' })).toMatchObject({
      imported: 0,
    });
    await expect(syncLocks({ tenantId, actor: TEST_ACTOR, deviceId: 'no_such_device' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await locksOf(tenantId)).toEqual(['august_device_1']);

    // The same Seam account connected by a second tenant: the device is the first tenant's.
    const second = await seamTenant();
    await expect(syncLocks({ tenantId: second, actor: TEST_ACTOR, deviceId: 'august_device_1' })).rejects.toMatchObject(
      { code: 'conflict' },
    );
    expect(await locksOf(second)).toEqual([]);
  });

  it('never takes one of the install’s locks by id', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const before = await locksOf(tenantId);
    await expect(syncLocks({ tenantId, actor: TEST_ACTOR, deviceId: '12345' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(await locksOf(tenantId)).toEqual(before);
  });
});
