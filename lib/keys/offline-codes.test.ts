import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reservationDetail } from '../desk/reservation-detail';
import { getGuestKey } from '../guests/get-guest-key';
import { addRoomLock } from '../locks/locks';
import { registerLockProvider } from '../locks/tenant-provider';
import { fakeDevice, fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { revokeKey } from './revoke-key';
import { programKeyOnLock, removeKeyFromLock } from '../locks/sync-provider';

let admin: pg.Client;
let fake: ReturnType<typeof fakeLockProvider>;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});
beforeEach(() => {
  fake = fakeLockProvider({
    name: 'ttlock',
    devices: [fakeDevice('bridgeless', { canProgramOnline: false, canProgramOffline: true, online: null })],
  });
  registerLockProvider('ttlock', () => fake.provider);
});

async function stayOnBridgelessLock() {
  const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'ttlock' });
  await addRoomLock({ tenantId, roomId: roomIds[0]!, lockId: locks[0]!.id, actor: TEST_ACTOR });
  const booked = await bookRoom({ tenantId, roomId: roomIds[0]! });
  const { rows } = await admin.query(`select id, pin from access_keys where reservation_id = $1`, [
    booked.reservationId,
  ]);
  return { tenantId, ...booked, first: rows[0] as { id: string; pin: string } };
}

async function keysOf(reservationId: string) {
  const { rows } = await admin.query(
    `select k.id, k.status::text, k.pin, k.vendor_sync::text, k.revoked_reason, k.valid_from, k.expires_at,
            c.state::text as door, c.offline
       from access_keys k left join key_lock_codes c on c.key_id = k.id
      where k.reservation_id = $1 order by k.created_at`,
    [reservationId],
  );
  return rows;
}

describe('offline (algorithmic) codes', () => {
  it('replace the key by one carrying the lock’s own code for the same window, shown to the guest', async () => {
    const { tenantId, reservationId, token, first } = await stayOnBridgelessLock();
    await programKeyOnLock({ tenantId, keyId: first.id, attempt: 1, maxAttempts: 8 });
    const [old, replacement] = await keysOf(reservationId);
    expect(old).toMatchObject({
      id: first.id,
      status: 'revoked',
      revoked_reason: 'replaced_by_offline_code',
      door: null,
    });
    expect(replacement).toMatchObject({
      status: 'pre_issued',
      vendor_sync: 'synced',
      door: 'set',
      offline: true,
      valid_from: old.valid_from,
      expires_at: old.expires_at,
    });
    expect(replacement.pin).not.toBe(first.pin);
    expect(fake.calls.map((c) => c.method)).toEqual(['listDevices', 'offlineCode']);
    expect(await getGuestKey(token)).toMatchObject({ id: replacement.id, pin: replacement.pin, status: 'pre_issued' });
  });

  it('when revoked, say plainly that the code still opens the lock until its end, and never ask to remove it', async () => {
    const { tenantId, reservationId, first } = await stayOnBridgelessLock();
    await programKeyOnLock({ tenantId, keyId: first.id, attempt: 1, maxAttempts: 8 });
    const replacement = (await keysOf(reservationId))[1]!;
    await revokeKey({ tenantId, keyId: replacement.id, reason: 'guest left early', actor: TEST_ACTOR });
    await removeKeyFromLock({ tenantId, keyId: replacement.id, attempt: 1, maxAttempts: 8 });
    expect((await keysOf(reservationId))[1]).toMatchObject({ status: 'revoked', door: 'valid_until_end' });
    expect(fake.calls.some((c) => c.method === 'removeCode')).toBe(false);

    const audit = await admin.query(
      `select action from audit_events where subject_id = $1 and action like 'key.%' order by occurred_at`,
      [replacement.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'key.issued',
      'key.door_set',
      'key.revoked',
      'key.door_valid_until_end',
    ]);
    const detail = await reservationDetail({ tenantId, reservationId });
    const shown = detail!.accessKeys.find((k) => k.id === replacement.id)!;
    expect(shown.doors).toMatchObject([{ state: 'valid_until_end', offline: true }]);
    expect(shown.expiresAt).toEqual(replacement.expires_at);
  });
});
