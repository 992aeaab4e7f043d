import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getGuestKey } from '../guests/get-guest-key';
import { addRoomLock } from '../locks/locks';
import { registerLockProvider } from '../locks/tenant-provider';
import { fakeDevice, fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, bookRoom, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { checkBackupNeeded } from './backup-codes';
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
    devices: [fakeDevice('pooled', { supportsBackupCodes: true }), fakeDevice('plain')],
  });
  registerLockProvider('seam', () => fake.provider);
});

/** A stay on a one-door room whose lock is `deviceId`, its code taken by the provider but not confirmed. */
async function unconfirmedStay(deviceId: 'pooled' | 'plain') {
  const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'seam' });
  await addRoomLock({
    tenantId,
    roomId: roomIds[0]!,
    lockId: locks.find((l) => l.deviceId === deviceId)!.id,
    actor: TEST_ACTOR,
  });
  fake.state.acceptAs = 'setting';
  const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
  const { rows } = await admin.query(`select id, pin from access_keys where reservation_id = $1`, [reservationId]);
  const key = rows[0] as { id: string; pin: string };
  await programKeyOnLock({ tenantId, keyId: key.id, attempt: 1, maxAttempts: 8 }).catch(() => undefined);
  return { tenantId, reservationId, token, key };
}

async function keysOf(reservationId: string) {
  const { rows } = await admin.query(
    `select id, kind::text, status::text, vendor_sync::text, backup_for, valid_from, expires_at, revoked_reason
       from access_keys where reservation_id = $1 order by created_at`,
    [reservationId],
  );
  return rows;
}

describe('backup codes', () => {
  it('stand in for a code not on its lock in time: same window, shown to the guest, ended with their key', async () => {
    const { tenantId, reservationId, token, key } = await unconfirmedStay('pooled');
    expect(await checkBackupNeeded({ tenantId, keyId: key.id })).toMatchObject({ kind: 'issued' });
    const [own, backup] = await keysOf(reservationId);
    expect(backup).toMatchObject({
      kind: 'backup',
      status: 'pre_issued',
      vendor_sync: 'synced',
      backup_for: own.id,
      valid_from: own.valid_from,
      expires_at: own.expires_at,
    });
    const guestKey = await getGuestKey(token);
    expect(guestKey).toMatchObject({ id: backup.id, kind: 'backup', vendorSync: 'synced' });
    expect(guestKey.pin).toMatch(/^\d{6}$/);
    expect(guestKey.pin).not.toBe(key.pin);
    const audit = await admin.query(
      `select reason, metadata->>'standsInFor' as stands_in_for from audit_events where subject_id = $1 and action = 'key.backup_issued'`,
      [backup.id],
    );
    expect(audit.rows).toEqual(
      [{ reason: null, stands_in_for: key.id }].map((r) => ({ ...r, reason: expect.any(String) })),
    );

    // Asked again (a retried job): one backup per key.
    expect(await checkBackupNeeded({ tenantId, keyId: key.id })).toEqual({ kind: 'not_needed' });
    expect(fake.calls.filter((c) => c.method === 'pullBackupCode')).toHaveLength(1);

    await revokeKey({ tenantId, keyId: key.id, reason: 'cancelled', actor: TEST_ACTOR });
    const ended = await keysOf(reservationId);
    expect(ended.map((k) => [k.kind, k.status, k.revoked_reason])).toEqual([
      ['guest', 'revoked', 'cancelled'],
      ['backup', 'revoked', 'cancelled'],
    ]);
    await removeKeyFromLock({ tenantId, keyId: backup.id, attempt: 1, maxAttempts: 8 });
    const door = await admin.query(`select state::text from key_lock_codes where key_id = $1`, [backup.id]);
    expect(door.rows).toEqual([{ state: 'removed' }]);
  });

  it('are not pulled when the code reached the lock, or where the lock has no pool', async () => {
    const confirmed = await unconfirmedStay('pooled');
    const codeId = (await admin.query(`select code_id from key_lock_codes where key_id = $1`, [confirmed.key.id]))
      .rows[0].code_id;
    fake.settle(codeId, 'set');
    await programKeyOnLock({ tenantId: confirmed.tenantId, keyId: confirmed.key.id, attempt: 2, maxAttempts: 8 });
    expect(await checkBackupNeeded({ tenantId: confirmed.tenantId, keyId: confirmed.key.id })).toEqual({
      kind: 'not_needed',
    });

    const plain = await unconfirmedStay('plain');
    expect(await checkBackupNeeded({ tenantId: plain.tenantId, keyId: plain.key.id })).toEqual({
      kind: 'not_possible',
      reason: 'no_backup_pool',
    });
    expect((await keysOf(plain.reservationId)).map((k) => k.kind)).toEqual(['guest']);
    expect(fake.calls.filter((c) => c.method === 'pullBackupCode')).toHaveLength(0);
  });

  it('cannot be a second live backup for one key, or a backup without the key it stands in for (database rules)', async () => {
    const { tenantId, reservationId, key } = await unconfirmedStay('pooled');
    await checkBackupNeeded({ tenantId, keyId: key.id });
    const [own] = await keysOf(reservationId);
    const second = admin.query(
      `insert into access_keys (tenant_id, reservation_id, room_id, status, pin, valid_from, expires_at, kind, backup_for)
       select tenant_id, reservation_id, room_id, status, '777777', valid_from, expires_at, 'backup', id from access_keys where id = $1`,
      [own.id],
    );
    await expect(second).rejects.toMatchObject({ code: '23505' });
    const orphan = admin.query(
      `insert into access_keys (tenant_id, reservation_id, room_id, status, pin, valid_from, expires_at, kind)
       select tenant_id, reservation_id, room_id, 'revoked', '777778', valid_from, expires_at, 'backup' from access_keys where id = $1`,
      [own.id],
    );
    await expect(orphan).rejects.toMatchObject({ code: '23514' });
  });
});
