import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { revokeKey } from '../keys/revoke-key';
import { programKeyOnLock, removeKeyFromLock } from './sync-provider';
import { fakeDevice, fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { applyLockEvent } from './lock-events';
import { addRoomLock } from './locks';
import { checkTenantLocks, reconcileLock } from './reconcile';
import { registerLockProvider } from './tenant-provider';

let admin: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  fake = fakeLockProvider({ devices: [fakeDevice('door-1')] });
  registerLockProvider('seam', () => fake.provider);
});

/** A tenant on the fake "Seam", one room with one lock, and a booked stay whose key is on it. */
async function stayOnALock(options: { confirm?: boolean } = {}) {
  const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'seam' });
  const lockId = locks[0]!.id;
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId, actor: TEST_ACTOR });
  const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
  const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
  const keyId: string = rows[0].id;
  if (options.confirm !== false) await programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 });
  return { tenantId, lockId, keyId, roomId: roomIds[0]! };
}

async function door(keyId: string) {
  const { rows } = await admin.query(
    `select c.state::text, c.code_id, k.vendor_sync::text from key_lock_codes c join access_keys k on k.id = c.key_id where c.key_id = $1`,
    [keyId],
  );
  return rows[0] as { state: string; code_id: string | null; vendor_sync: string };
}

async function openIncidents(tenantId: string) {
  const { rows } = await admin.query(
    `select kind, severity, detail from incidents where tenant_id = $1 and resolved_at is null order by kind`,
    [tenantId],
  );
  return rows as { kind: string; severity: string; detail: Record<string, unknown> }[];
}

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

describe('a provider’s code events', () => {
  it('confirm a code only while it is wanted, and never bring back one being removed', async () => {
    fake.state.acceptAs = 'setting';
    const { tenantId, keyId } = await stayOnALock({ confirm: false });
    await programKeyOnLock({ tenantId, keyId, attempt: 1, maxAttempts: 8 }).catch(() => undefined);
    const { code_id: codeId } = await door(keyId);
    expect(await door(keyId)).toMatchObject({ state: 'setting', vendor_sync: 'pending' });

    const set = { kind: 'code_set' as const, deviceId: 'door-1', codeId: codeId!, error: null, occurredAt: at(0) };
    expect(await applyLockEvent({ tenantId, provider: 'seam', event: set })).toEqual({ status: 'processed' });
    expect(await door(keyId)).toMatchObject({ state: 'set', vendor_sync: 'synced' });
    // A replayed confirmation changes nothing.
    expect(await applyLockEvent({ tenantId, provider: 'seam', event: set })).toEqual({
      status: 'ignored',
      reason: 'door_set',
    });

    await revokeKey({ tenantId, keyId, reason: 'cancelled', actor: TEST_ACTOR });
    // A late "set" for a key that ended must not make its door look live again.
    expect(await applyLockEvent({ tenantId, provider: 'seam', event: set })).toMatchObject({ status: 'ignored' });
    expect(await door(keyId)).toMatchObject({ state: 'removing' });
    const removed = { ...set, kind: 'code_removed' as const };
    expect(await applyLockEvent({ tenantId, provider: 'seam', event: removed })).toEqual({ status: 'processed' });
    expect(await door(keyId)).toMatchObject({ state: 'removed', vendor_sync: 'synced' });
  });

  it('put back a live key’s code that was removed at the lock, and fail a code the lock refused', async () => {
    const { tenantId, keyId, lockId } = await stayOnALock();
    const { code_id: codeId } = await door(keyId);
    const event = {
      kind: 'code_removed' as const,
      deviceId: 'door-1',
      codeId: codeId!,
      error: null,
      occurredAt: at(0),
    };
    await applyLockEvent({ tenantId, provider: 'seam', event });
    expect(await door(keyId)).toMatchObject({ state: 'pending', code_id: null, vendor_sync: 'pending' });
    await programKeyOnLock({ tenantId, keyId, attempt: 2, maxAttempts: 8 });
    const again = await door(keyId);
    expect(again).toMatchObject({ state: 'set', vendor_sync: 'synced' });

    const failed = {
      kind: 'code_failed' as const,
      deviceId: 'door-1',
      codeId: again.code_id!,
      error: 'failed_to_set_on_device',
      occurredAt: at(0),
    };
    await applyLockEvent({ tenantId, provider: 'seam', event: failed });
    expect(await door(keyId)).toMatchObject({ state: 'failed', vendor_sync: 'failed' });
    expect(await openIncidents(tenantId)).toMatchObject([
      { kind: 'lock_program_failed', detail: { lockId, keyIds: [keyId] } },
    ]);
  });

  it('ignore a device or a code that is not ours', async () => {
    const { tenantId } = await stayOnALock();
    const unknownDevice = {
      kind: 'device_disconnected' as const,
      deviceId: 'nope',
      batteryLevel: null,
      occurredAt: at(0),
    };
    expect(await applyLockEvent({ tenantId, provider: 'seam', event: unknownDevice })).toEqual({
      status: 'ignored',
      reason: 'unknown_device',
    });
    const unknownCode = { kind: 'code_set' as const, deviceId: 'door-1', codeId: 'x', error: null, occurredAt: at(0) };
    expect(await applyLockEvent({ tenantId, provider: 'seam', event: unknownCode })).toEqual({
      status: 'ignored',
      reason: 'unknown_code',
    });
  });
});

describe('device health', () => {
  it('opens one offline incident naming the keys it affects, ignores an older event, and resolves when back', async () => {
    const { tenantId, keyId, lockId } = await stayOnALock();
    const down = { kind: 'device_disconnected' as const, deviceId: 'door-1', batteryLevel: null, occurredAt: at(5) };
    await applyLockEvent({ tenantId, provider: 'seam', event: down });
    await applyLockEvent({ tenantId, provider: 'seam', event: { ...down, occurredAt: at(4) } });
    expect(await openIncidents(tenantId)).toMatchObject([
      { kind: 'lock_offline', detail: { lockId, keyIds: [keyId] } },
    ]);
    const { rows } = await admin.query(`select occurrences from incidents where tenant_id = $1`, [tenantId]);
    expect(rows).toEqual([{ occurrences: 2 }]);

    // Delivered late: a "connected" from before the disconnection does not bring the lock back.
    await applyLockEvent({
      tenantId,
      provider: 'seam',
      event: { ...down, kind: 'device_connected', occurredAt: at(10) },
    });
    expect((await admin.query(`select online from locks where id = $1`, [lockId])).rows[0].online).toBe(false);
    await applyLockEvent({
      tenantId,
      provider: 'seam',
      event: { ...down, kind: 'device_connected', occurredAt: at(1) },
    });
    expect((await admin.query(`select online from locks where id = $1`, [lockId])).rows[0].online).toBe(true);
    expect(await openIncidents(tenantId)).toEqual([]);
  });

  it('opens a low-battery incident from an event and resolves it when a status read finds the battery changed', async () => {
    const { tenantId, lockId } = await stayOnALock();
    const low = { kind: 'low_battery' as const, deviceId: 'door-1', batteryLevel: 8, occurredAt: at(0) };
    await applyLockEvent({ tenantId, provider: 'seam', event: low });
    expect(await openIncidents(tenantId)).toMatchObject([{ kind: 'lock_low_battery', detail: { batteryLevel: 8 } }]);
    fake.state.devices = [fakeDevice('door-1', { batteryLevel: 95 })];
    await checkTenantLocks(tenantId);
    expect(await openIncidents(tenantId)).toEqual([]);
    expect((await admin.query(`select battery_level from locks where id = $1`, [lockId])).rows[0].battery_level).toBe(
      95,
    );
  });

  it('opens an offline incident from a status read too', async () => {
    const { tenantId } = await stayOnALock();
    fake.state.devices = [fakeDevice('door-1', { online: false })];
    await checkTenantLocks(tenantId);
    expect((await openIncidents(tenantId)).map((i) => i.kind)).toEqual(['lock_offline']);
  });
});

describe('reconciliation', () => {
  it('shows codes we did not make, sends a vanished code again, removes an ended one still on the lock', async () => {
    const { tenantId, lockId, keyId, roomId } = await stayOnALock();
    fake.addForeignCode('door-1', '999999');
    let report = await reconcileLock({ tenantId, lockId });
    expect(report).toMatchObject({ foreignCodes: 1, missingKeyIds: [], lingeringKeyIds: [] });
    expect(await openIncidents(tenantId)).toMatchObject([{ kind: 'lock_drift', severity: 'warning' }]);

    // Our code vanished from the lock: it is sent again.
    fake.codes.delete((await door(keyId)).code_id!);
    report = await reconcileLock({ tenantId, lockId });
    expect(report.missingKeyIds).toEqual([keyId]);
    expect(await door(keyId)).toMatchObject({ state: 'pending', vendor_sync: 'pending' });
    await programKeyOnLock({ tenantId, keyId, attempt: 2, maxAttempts: 8 });
    expect(await door(keyId)).toMatchObject({ state: 'set', vendor_sync: 'synced' });

    // A second stay's key ended and we recorded it removed, but the lock still has it.
    const second = await bookRoom({ tenantId, roomId, startsInHours: 72 });
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [second.reservationId]);
    const endedKey: string = rows[0].id;
    await programKeyOnLock({ tenantId, keyId: endedKey, attempt: 1, maxAttempts: 8 });
    const lingering = (await door(endedKey)).code_id!;
    await revokeKey({ tenantId, keyId: endedKey, reason: 'cancelled', actor: TEST_ACTOR });
    await admin.query(`update key_lock_codes set state = 'removed', removed_at = now() where key_id = $1`, [endedKey]);
    fake.state.removeLater = false;
    report = await reconcileLock({ tenantId, lockId, actor: TEST_ACTOR });
    expect(report.lingeringKeyIds).toEqual([endedKey]);
    expect(await openIncidents(tenantId)).toMatchObject([{ kind: 'lock_drift', severity: 'critical' }]);
    await removeKeyFromLock({ tenantId, keyId: endedKey, attempt: 1, maxAttempts: 8 });
    expect(fake.codes.has(lingering)).toBe(false);

    // Once the lock and our records agree (the foreign code gone), the drift incident resolves.
    for (const [id, code] of fake.codes) if (!code.clientRef) fake.codes.delete(id);
    report = await reconcileLock({ tenantId, lockId });
    expect(report).toMatchObject({ foreignCodes: 0, missingKeyIds: [], lingeringKeyIds: [] });
    expect(await openIncidents(tenantId)).toEqual([]);
    const snapshot = (await admin.query(`select provider_codes from locks where id = $1`, [lockId])).rows[0]
      .provider_codes;
    const { pin } = (await admin.query(`select pin from access_keys where id = $1`, [keyId])).rows[0];
    expect(JSON.stringify(snapshot)).not.toContain(pin);
    expect(Object.keys(snapshot[0]).sort()).toEqual(['clientRef', 'codeId', 'state']);
  });
});
