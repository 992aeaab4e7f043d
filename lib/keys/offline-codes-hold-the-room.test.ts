import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cancelReservation } from '../bookings/cancel-reservation';
import { reservationDetail } from '../desk/reservation-detail';
import { addRoomLock } from '../locks/locks';
import { registerLockProvider } from '../locks/tenant-provider';
import { changeReservationDates } from '../stays/change-dates';
import { checkOutReservation } from '../stays/check-out';
import { completeCheckIn } from '../stays/complete-check-in';
import { fakeDevice, fakeLockProvider, tenantOnProvider } from '../../tooling/testing/fake-lock-provider';
import { adminClient, bookWindow, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { listReservationKeys } from './list-reservation-keys';
import { programKeyOnLock } from '../locks/sync-provider';

// Issue 28, item 5: an offline code cannot be taken off its lock, so the time it can still open the
// door stays occupied — after a shorter stay, a check-out or a cancellation — and the desk and the
// API say until when it opens the door.

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

const HOUR = 3_600_000;
const BASE = Date.now();
const at = (hours: number) => new Date(BASE + hours * HOUR);

/** A stay on a bridgeless lock, its key replaced by the lock's own offline code for [1 h, 49 h). */
async function stayWithOfflineCode() {
  const { tenantId, roomIds, locks } = await tenantOnProvider({ provider: 'ttlock' });
  const roomId = roomIds[0]!;
  await addRoomLock({ tenantId, roomId, lockId: locks[0]!.id, actor: TEST_ACTOR });
  const reservationId = await bookWindow(tenantId, roomId, at(1), at(49));
  const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
  await programKeyOnLock({ tenantId, keyId: rows[0].id, attempt: 1, maxAttempts: 8 });
  const offline = await admin.query(
    `select k.id from access_keys k join key_lock_codes c on c.key_id = k.id and c.offline
      where k.reservation_id = $1 and k.status = 'pre_issued'`,
    [reservationId],
  );
  expect(offline.rows).toHaveLength(1);
  return { tenantId, roomId, reservationId, offlineKeyId: offline.rows[0].id as string };
}

async function expectBookingRefused(tenantId: string, roomId: string, startsAt: Date, endsAt: Date) {
  const { rows: before } = await admin.query(`select count(*)::int as n from reservations where tenant_id = $1`, [
    tenantId,
  ]);
  await expect(bookWindow(tenantId, roomId, startsAt, endsAt)).rejects.toMatchObject({ code: 'room_unavailable' });
  const { rows: after } = await admin.query(`select count(*)::int as n from reservations where tenant_id = $1`, [
    tenantId,
  ]);
  expect(after[0].n).toBe(before[0].n);
}

describe('an offline code holds the room until its end', () => {
  it('a shorter stay keeps the code’s end on the record; the freed nights are not sold while it opens the door', async () => {
    const s = await stayWithOfflineCode();
    await changeReservationDates({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      endsAt: at(25),
      actor: TEST_ACTOR,
    });
    // The desk and the API say the true end: the lock opens with that code until 49 h.
    const keys = await listReservationKeys({ tenantId: s.tenantId, reservationId: s.reservationId });
    const offline = keys.find((k) => k.id === s.offlineKeyId)!;
    expect(new Date(offline.expiresAt).getTime()).toBe(at(49).getTime());
    const detail = await reservationDetail({ tenantId: s.tenantId, reservationId: s.reservationId });
    expect(detail!.accessKeys.find((k) => k.id === s.offlineKeyId)!.expiresAt).toEqual(at(49));
    await expectBookingRefused(s.tenantId, s.roomId, at(25), at(49));
    await expectBookingRefused(s.tenantId, s.roomId, at(40), at(60));
    // After the code's end the room is free again.
    await expect(bookWindow(s.tenantId, s.roomId, at(49), at(60))).resolves.toEqual(expect.any(String));
  });

  it('a check-out or a cancellation does not free the time the code can still open the door', async () => {
    const out = await stayWithOfflineCode();
    await completeCheckIn({ tenantId: out.tenantId, reservationId: out.reservationId, actor: TEST_ACTOR, early: true });
    await checkOutReservation({ tenantId: out.tenantId, reservationId: out.reservationId, actor: TEST_ACTOR });
    await expectBookingRefused(out.tenantId, out.roomId, at(10), at(20));

    const cancelled = await stayWithOfflineCode();
    await cancelReservation({
      tenantId: cancelled.tenantId,
      reservationId: cancelled.reservationId,
      reason: 'guest cancelled',
      actor: TEST_ACTOR,
    });
    await expectBookingRefused(cancelled.tenantId, cancelled.roomId, at(10), at(20));
  });

  it('a longer stay gets a new key for its new window; the old code stays valid on the lock until its end', async () => {
    const s = await stayWithOfflineCode();
    await changeReservationDates({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      endsAt: at(73),
      actor: TEST_ACTOR,
    });
    const { rows } = await admin.query(
      `select id, status::text, revoked_reason, expires_at, replaces from access_keys where reservation_id = $1 order by created_at`,
      [s.reservationId],
    );
    const old = rows.find((k) => k.id === s.offlineKeyId)!;
    expect(old).toMatchObject({ status: 'revoked', revoked_reason: 'dates_changed' });
    expect(old.expires_at).toEqual(at(49));
    const successor = rows.find((k) => k.replaces === s.offlineKeyId)!;
    expect(successor).toMatchObject({ status: 'pre_issued' });
    expect(successor.expires_at).toEqual(at(73));
    await expectBookingRefused(s.tenantId, s.roomId, at(60), at(80));
  });
});
