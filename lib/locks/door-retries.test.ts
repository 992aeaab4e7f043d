import { describe, expect, it } from 'vitest';
import { applyLockEvent } from './lock-events';
import { addRoomLock } from './locks';
import { checkTenantLocks } from './reconcile';
import { fakeDevice, tenantOnProvider, withFakeSeam } from '../../tooling/testing/fake-lock-provider';
import { bookRoom, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { retryFailedDoors } from './retry-failed-doors';
import { programKeyOnLock } from './sync-provider';

// A door whose code failed is sent again without anyone pressing Re-sync (issue 28, item 11 a):
// when its lock comes back online (a provider's device event, or a status read that sees it), and
// on a schedule whose last try comes before the stay starts.
const env = withFakeSeam();

/** A booked stay on a one-door room whose code failed for good while the lock was offline. */
async function failedDoor(options: { startsInHours?: number; failure?: { code: string; retryable: boolean } } = {}) {
  const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'seam' });
  const lockId = locks[0]!.id;
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId, actor: TEST_ACTOR });
  const { reservationId } = await bookRoom({
    tenantId,
    roomId: roomIds[0]!,
    startsInHours: options.startsInHours ?? 3,
  });
  const { rows } = await env.admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
  const keyId: string = rows[0].id;
  env.fake.state.failing.set('door-1', options.failure ?? { code: 'device_offline', retryable: true });
  // The queue's last attempt: the door fails for good.
  await programKeyOnLock({ tenantId, keyId, attempt: 8, maxAttempts: 8 });
  env.fake.state.failing.clear();
  expect(await door(keyId)).toMatchObject({ state: 'failed', vendor_sync: 'failed' });
  return { tenantId, lockId, keyId, reservationId };
}

async function door(keyId: string) {
  const { rows } = await env.admin.query(
    `select c.state::text, c.error, c.next_retry_at, c.auto_retries, k.vendor_sync::text
       from key_lock_codes c join access_keys k on k.id = c.key_id where c.key_id = $1`,
    [keyId],
  );
  return rows[0] as {
    state: string;
    error: string | null;
    next_retry_at: Date | null;
    auto_retries: number;
    vendor_sync: string;
  };
}

/** The program jobs queued for a key (the outbox), not yet run. */
async function programJobs(keyId: string): Promise<number> {
  const { rows } = await env.admin.query(
    `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'vendor_program_key' and j.payload->>'keyId' = $1`,
    [keyId],
  );
  return rows[0].n;
}

const afterQueued = async (tenantId: string, keyId: string) => {
  await programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 });
  return door(keyId);
};

describe('a failed door', () => {
  it('is sent again when its lock reports it is back online (device.connected)', async () => {
    const { tenantId, keyId } = await failedDoor();
    const before = await programJobs(keyId);
    const back = { kind: 'device_connected' as const, deviceId: 'door-1', batteryLevel: null, occurredAt: new Date() };
    expect(await applyLockEvent({ tenantId, provider: 'seam', event: back })).toEqual({ status: 'processed' });
    expect(await door(keyId)).toMatchObject({ state: 'pending', vendor_sync: 'pending', auto_retries: 1 });
    expect(await programJobs(keyId)).toBe(before + 1);
    expect(await afterQueued(tenantId, keyId)).toMatchObject({
      state: 'set',
      vendor_sync: 'synced',
      next_retry_at: null,
    });
  });

  it('is sent again when a status read sees its lock back online', async () => {
    const { tenantId, keyId } = await failedDoor();
    env.fake.state.devices = [fakeDevice('door-1', { online: false })];
    await checkTenantLocks(tenantId);
    expect(await door(keyId)).toMatchObject({ state: 'failed', auto_retries: 0 });
    env.fake.state.devices = [fakeDevice('door-1', { online: true })];
    await checkTenantLocks(tenantId);
    expect(await door(keyId)).toMatchObject({ state: 'pending', auto_retries: 1 });
    expect(await afterQueued(tenantId, keyId)).toMatchObject({ state: 'set', vendor_sync: 'synced' });
  });

  it('is sent again on a schedule (backing off) whose last try is due before the stay starts', async () => {
    const { tenantId, keyId, reservationId } = await failedDoor({ startsInHours: 3 });
    const first = await door(keyId);
    // Five minutes after the first failure, long before the deadline.
    expect(first.next_retry_at!.getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(first.next_retry_at!.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000 + 5_000);
    // Not due yet: the schedule leaves it (other tests' doors in this database may be due; this one is not sent).
    await retryFailedDoors();
    expect(await door(keyId)).toMatchObject({ state: 'failed', auto_retries: 0 });
    await env.admin.query(`update key_lock_codes set next_retry_at = now() - interval '1 second' where key_id = $1`, [
      keyId,
    ]);
    expect((await retryFailedDoors()).doors).toBeGreaterThanOrEqual(1);
    expect(await door(keyId)).toMatchObject({ state: 'pending', auto_retries: 1 });

    // Failing again and again, the wait grows — but never past 30 minutes before the stay starts.
    await env.admin.query(`update key_lock_codes set auto_retries = 6 where key_id = $1`, [keyId]);
    env.fake.state.failing.set('door-1', { code: 'device_offline', retryable: true });
    await programKeyOnLock({ tenantId, keyId, attempt: 8, maxAttempts: 8 });
    const { rows } = await env.admin.query(`select starts_at from reservations where id = $1`, [reservationId]);
    const later = await door(keyId);
    expect(later.state).toBe('failed');
    expect(later.next_retry_at!.getTime()).toBe(rows[0].starts_at.getTime() - 30 * 60_000);
  });

  it('whose failure no retry can cure (the PIN is taken on the lock) is left to the desk', async () => {
    const { tenantId, keyId } = await failedDoor({ failure: { code: 'duplicate_code_on_device', retryable: false } });
    expect(await door(keyId)).toMatchObject({ next_retry_at: null });
    const back = { kind: 'device_connected' as const, deviceId: 'door-1', batteryLevel: null, occurredAt: new Date() };
    await applyLockEvent({ tenantId, provider: 'seam', event: back });
    expect(await door(keyId)).toMatchObject({ state: 'failed', auto_retries: 0 });
  });
});
