import type pg from 'pg';
import { createFake, type Fake } from '@seamapi/fake-seam-connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programKeyOnLock } from './sync-provider';
import { setProviderSecret } from '../secrets/provider-secrets';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { seamEvent, sendSeam } from '../../tooling/testing/seam-webhooks';
import { newSvixSecret } from '../../tooling/testing/svix';
import { processWebhookEvent } from '../webhooks/process-event';
import { addRoomLock, setLockProvider, syncLocks } from './locks';
import './seam';

// The whole path against Seam's own fake: the real adapter syncs the tenant's locks and puts a
// stay's code on one; the code stays "setting" until Seam says it is set — here by a signed
// `access_code.set_on_device` delivery to the tenant's webhook, processed as the worker would.

let admin: pg.Client;
let fake: Fake;

beforeAll(async () => {
  admin = await adminClient();
  fake = await createFake();
  await fake.seed();
  await fake.startServer();
  process.env.SEAM_ENDPOINT = fake.serverUrl!;
});
afterAll(async () => {
  delete process.env.SEAM_ENDPOINT;
  await fake.stopServer();
  await admin.end();
});

async function processAll(tenantId: string) {
  const { rows } = await admin.query(
    `select id from webhook_events where tenant_id = $1 and status = 'received' order by received_at, id`,
    [tenantId],
  );
  for (const row of rows) await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
}

describe('a Seam tenant, end to end', () => {
  it('syncs Seam’s locks, sets a stay’s code, and counts it synced only once Seam’s event says set', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const webhookSecret = newSvixSecret();
    await setLockProvider({ tenantId, provider: 'seam', actor: TEST_ACTOR });
    await setProviderSecret({ tenantId, provider: 'seam', value: 'seam_apikey1_token', actor: TEST_ACTOR });
    await setProviderSecret({ tenantId, provider: 'seam_webhook', value: webhookSecret, actor: TEST_ACTOR });

    const { locks } = await syncLocks({ tenantId, actor: TEST_ACTOR });
    expect(locks.map((l) => l.deviceId).sort()).toEqual(['august_device_1', 'august_device_2', 'schlage_device_id']);
    const front = locks.find((l) => l.deviceId === 'august_device_1')!;
    expect(front).toMatchObject({ provider: 'seam', online: true, batteryLevel: 100 });
    await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: front.id, actor: TEST_ACTOR });

    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const { rows: keys } = await admin.query(`select id, pin from access_keys where reservation_id = $1`, [
      reservationId,
    ]);
    const keyId: string = keys[0].id;
    await programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 }).catch(() => undefined);
    const door = async () =>
      (
        await admin.query(
          `select c.state::text, c.code_id, k.vendor_sync::text from key_lock_codes c join access_keys k on k.id = c.key_id where c.key_id = $1`,
          [keyId],
        )
      ).rows[0] as { state: string; code_id: string | null; vendor_sync: string };
    const before = await door();
    expect(before).toMatchObject({ state: 'setting', vendor_sync: 'pending' });
    // Seam holds the code under our key's name, with the key's PIN, on that lock — not yet set.
    const onSeam = fake.database.access_codes.find((c) => c.access_code_id === before.code_id)!;
    expect(onSeam).toMatchObject({ device_id: 'august_device_1', name: `unlockos:${keyId}`, code: keys[0].pin });
    expect(onSeam.status).toBe('unset');

    // The lock takes the code; Seam tells us through the tenant's webhook.
    fake.database.updateAccessCode({ access_code_id: before.code_id!, status: 'set' });
    const delivery = await sendSeam(
      tenantId,
      seamEvent('access_code.set_on_device', { device_id: 'august_device_1', access_code_id: before.code_id }),
      { secret: webhookSecret },
    );
    expect(await delivery.json()).toEqual({ received: true, duplicate: false });
    await processAll(tenantId);
    expect(await door()).toMatchObject({ state: 'set', vendor_sync: 'synced' });

    // A low battery on that lock reaches the lock's record and opens its incident.
    await sendSeam(tenantId, seamEvent('device.low_battery', { device_id: 'august_device_1', battery_level: 0.1 }), {
      secret: webhookSecret,
    });
    await processAll(tenantId);
    const { rows: lockRows } = await admin.query(`select battery_level from locks where id = $1`, [front.id]);
    expect(lockRows[0].battery_level).toBe(10);
    const { rows: incidents } = await admin.query(
      `select kind from incidents where tenant_id = $1 and resolved_at is null and kind = 'lock_low_battery'`,
      [tenantId],
    );
    expect(incidents).toHaveLength(1);
    const { rows: events } = await admin.query(
      `select type, status from webhook_events where tenant_id = $1 order by received_at, id`,
      [tenantId],
    );
    expect(events).toEqual([
      { type: 'access_code.set_on_device', status: 'processed' },
      { type: 'device.low_battery', status: 'processed' },
    ]);
  });
});
