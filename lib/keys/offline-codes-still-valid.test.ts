import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { offlineCodesStillValid } from './offline-codes-still-valid';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

/** The reservation's pre-issued key, its one door holding an offline code (as a bridgeless lock's would). */
async function preIssuedOfflineKey(reservationId: string): Promise<{ id: string; expiresAt: Date }> {
  const { rows } = await admin.query(`select id, expires_at from access_keys where reservation_id = $1`, [
    reservationId,
  ]);
  await admin.query(
    `update key_lock_codes set state = 'set', offline = true, code_id = 'offline-1' where key_id = $1`,
    [rows[0].id],
  );
  return { id: rows[0].id, expiresAt: rows[0].expires_at };
}

describe('offline codes still valid on their lock', () => {
  it('are the ended keys whose offline code still opens a door, until the key’s end; never a PIN', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const offline = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const online = await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: -1 });
    const superseded = await preIssuedOfflineKey(offline.reservationId);
    await completeCheckIn({ tenantId, reservationId: offline.reservationId, actor: TEST_ACTOR });
    await completeCheckIn({ tenantId, reservationId: online.reservationId, actor: TEST_ACTOR });
    const reservationIds = [offline.reservationId, online.reservationId];

    const codes = await offlineCodesStillValid({ tenantId, reservationIds });
    expect(codes).toEqual([
      {
        keyId: superseded.id,
        reservationId: offline.reservationId,
        issuedAt: expect.any(Date),
        until: superseded.expiresAt,
        locks: [expect.stringMatching(/^\d+101$/)],
        timeZone: 'Asia/Tokyo',
      },
    ]);
    expect(codes[0]).not.toHaveProperty('pin');
    // After the key's end the lock no longer accepts it.
    const after = new Date(superseded.expiresAt.getTime() + 1000);
    expect(await offlineCodesStillValid({ tenantId, reservationIds, now: after })).toEqual([]);
    const other = await createBookableTenant();
    expect(await offlineCodesStillValid({ tenantId: other.tenantId, reservationIds })).toEqual([]);
  });
});
