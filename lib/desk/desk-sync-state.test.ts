import { describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant } from '../../tooling/testing/fixtures';
import { deskSyncState } from './desk-sync-state';

describe('what an open desk screen polls', () => {
  it("counts keys waiting for their lock, changes its fingerprint when one confirms, and ignores another tenant's ids", async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const other = await createBookableTenant({ rooms: 1 });
    const mine = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 24 });
    const foreign = await bookRoom({ tenantId: other.tenantId, roomId: other.roomIds[0]!, startsInHours: 24 });

    const before = await deskSyncState({ tenantId, reservationIds: [mine.reservationId] });
    expect(before.pending).toBe(1);
    // Another tenant's reservation adds nothing: the same answer as without it.
    expect(await deskSyncState({ tenantId, reservationIds: [mine.reservationId, foreign.reservationId] })).toEqual(
      before,
    );
    expect(await deskSyncState({ tenantId, reservationIds: [foreign.reservationId] })).toMatchObject({ pending: 0 });

    const admin = await adminClient();
    await admin.query(
      `update key_lock_codes set state = 'set', set_at = now(), updated_at = now() where key_id in (select id from access_keys where reservation_id = $1)`,
      [mine.reservationId],
    );
    const { rows } = await admin.query(`select vendor_sync from access_keys where reservation_id = $1`, [
      mine.reservationId,
    ]);
    await admin.end();
    const after = await deskSyncState({ tenantId, reservationIds: [mine.reservationId] });
    expect(after.fingerprint).not.toBe(before.fingerprint);
    expect(after.pending).toBe(rows.filter((r) => r.vendor_sync === 'pending').length);
    expect(after.pending).toBe(0);

    // Nothing changed: the same fingerprint. The stay changed: another.
    expect((await deskSyncState({ tenantId, reservationIds: [mine.reservationId] })).fingerprint).toBe(
      after.fingerprint,
    );
    const again = await adminClient();
    await again.query(`update reservations set ends_at = ends_at + interval '1 hour' where id = $1`, [
      mine.reservationId,
    ]);
    await again.end();
    expect((await deskSyncState({ tenantId, reservationIds: [mine.reservationId] })).fingerprint).not.toBe(
      after.fingerprint,
    );
  });

  it('watching the day (or a range) sees a booking that was not on the screen, and an empty screen too', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const other = await createBookableTenant({ rooms: 1 });
    const now = new Date();
    const window = { from: new Date(now.getTime() - 36 * 3_600_000), to: new Date(now.getTime() + 36 * 3_600_000) };
    // An empty desk: nothing on the screen yet.
    const empty = await deskSyncState({ tenantId, reservationIds: [], window });
    await bookRoom({ tenantId: other.tenantId, roomId: other.roomIds[0]!, startsInHours: 2 });
    expect(await deskSyncState({ tenantId, reservationIds: [], window })).toEqual(empty);
    const first = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 2 });
    const one = await deskSyncState({ tenantId, reservationIds: [], window });
    expect(one.fingerprint).not.toBe(empty.fingerprint);
    // The screen now shows the first; a second booking today changes what it watches again.
    const shown = await deskSyncState({ tenantId, reservationIds: [first.reservationId], window });
    await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: 3 });
    expect((await deskSyncState({ tenantId, reservationIds: [first.reservationId], window })).fingerprint).not.toBe(
      shown.fingerprint,
    );
    // A booking outside the watched range is not the screen's business.
    const settled = await deskSyncState({ tenantId, reservationIds: [first.reservationId], window });
    await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: 24 * 20 });
    expect(await deskSyncState({ tenantId, reservationIds: [first.reservationId], window })).toEqual(settled);
  });

  it('changes its fingerprint when the guest arrives and when the stay’s key opens a door', async () => {
    const { recordDoorEntry } = await import('../locks/door-entries');
    const { completeCheckIn } = await import('../stays/complete-check-in');
    const { TEST_ACTOR } = await import('../../tooling/testing/fixtures');
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const admin = await adminClient();
    const { rows } = await admin.query<{ device_id: string; lock_id: string }>(
      `select l.device_id, l.id as lock_id from room_locks d join locks l on l.tenant_id = d.tenant_id and l.id = d.lock_id
        where d.tenant_id = $1 and d.room_id = $2`,
      [tenantId, roomIds[0]],
    );
    await admin.query(`update key_lock_codes set code_id = 'c-1', state = 'set' where key_id = $1 and lock_id = $2`, [
      key.id,
      rows[0]!.lock_id,
    ]);
    await admin.end();
    const watch = () => deskSyncState({ tenantId, reservationIds: [reservationId] });
    const before = await watch();
    const open = (eventId: string) =>
      recordDoorEntry({
        tenantId,
        provider: 'simulator',
        eventId,
        deviceId: rows[0]!.device_id,
        codeId: 'c-1',
        kind: 'unlocked',
        method: 'code',
        occurredAt: new Date(),
      });
    // The first opening marks the stay arrived; a later one changes nothing on the stay, but is a new entry.
    await open('first');
    const arrived = await watch();
    expect(arrived.fingerprint).not.toBe(before.fingerprint);
    await open('second');
    expect((await watch()).fingerprint).not.toBe(arrived.fingerprint);
  });
});
