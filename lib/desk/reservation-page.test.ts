import { describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { completeCheckIn } from '../stays/complete-check-in';
import { recordDoorEntry } from '../locks/door-entries';
import { reservationView, timelineItems } from './reservation-page';

describe('the reservation page’s one read', () => {
  it('reads the stay, what the member may do, and what those actions need; null for another tenant', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 3 });
    const other = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Mai Abe' });

    const view = await reservationView({ tenantId, role: 'front_desk', reservationId });
    expect(view).toMatchObject({
      reservation: { id: reservationId, status: 'confirmed', guest: { name: 'Mai Abe' } },
      allows: { checkIn: true, deleteGuest: false, stay: { move: true, cancel: true, checkOut: false } },
      checkInWindow: expect.any(Object),
      checkInProblems: expect.any(Array),
      sync: { pending: expect.any(Number), fingerprint: expect.any(String) },
    });
    // A move offers the tenant's other rooms; the timeline holds the booking.
    expect(view!.freeRooms.map((r) => r.label).sort()).toEqual(['102', '103']);
    expect(view!.timeline.length).toBeGreaterThan(0);

    expect(await reservationView({ tenantId: other.tenantId, role: 'manager', reservationId })).toBeNull();
  });

  it('skips what the member may not do: no check-in window once checked in, no rooms when no move', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Kenji Sato' });
    await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const after = new Date(Date.now() + 48 * 3_600_000);

    const view = await reservationView({ tenantId, role: 'manager', reservationId, now: after });
    expect(view).toMatchObject({
      reservation: { status: 'checked_in' },
      allows: { checkIn: false, deleteGuest: true, stay: { checkOut: true, move: false, changeDates: false } },
      checkInWindow: undefined,
      checkInProblems: [],
      freeRooms: [],
    });
  });

  it('puts the stay’s door openings and the desk’s remote unlocks of its door in the timeline, in time order', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1, guestName: 'Aiko' });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const admin = await adminClient();
    const lock = (
      await admin.query<{ id: string; device_id: string }>(
        `select l.id, l.device_id from room_locks d join locks l on l.tenant_id = d.tenant_id and l.id = d.lock_id
          where d.tenant_id = $1 and d.room_id = $2`,
        [tenantId, roomIds[0]],
      )
    ).rows[0]!;
    await admin.query(`update key_lock_codes set code_id = 'c-7', state = 'set' where key_id = $1`, [key.id]);
    const opened = new Date(Date.now() + 60_000);
    // The desk opened the door remotely (its audit row carries the reason), then the lock reported the opening.
    await admin.query(
      `select app_audit($1, 'user', null, 'Desk Sato', 'door.unlocked_remotely', 'lock', $2, null, 'Guest locked out')`,
      [tenantId, lock.id],
    );
    await admin.end();
    const entry = await recordDoorEntry({
      tenantId,
      provider: 'simulator',
      eventId: 'e-1',
      deviceId: lock.device_id,
      codeId: 'c-7',
      kind: 'unlocked',
      method: 'code',
      occurredAt: opened,
    });

    const view = await reservationView({ tenantId, role: 'front_desk', reservationId });
    expect(view!.doors).toEqual([expect.objectContaining({ lockId: lock.id, role: 'room' })]);
    const history = view!.history.map((item) =>
      item.type === 'entry' ? `entry:${item.entry.method}` : item.event.action,
    );
    expect(history.slice(-2)).toEqual(['door.unlocked_remotely', 'entry:code']);
    expect(view!.history.at(-1)).toMatchObject({ type: 'entry', id: entry!.entryId, entry: { keyId: key.id } });
    expect(view!.timeline.find((e) => e.action === 'door.unlocked_remotely')).toMatchObject({
      reason: 'Guest locked out',
      context: { lock: expect.objectContaining({ id: lock.id }) },
    });
    expect(history.indexOf('checkin.completed')).toBeLessThan(history.indexOf('entry:code'));
  });
});

describe('a timeline of audit rows and door entries', () => {
  const at = (s: number) => new Date(Date.UTC(2030, 0, 15, 6, 0, s));
  type Event = Parameters<typeof timelineItems>[0][number];
  type Entry = Parameters<typeof timelineItems>[1][number];
  const event = (id: string, s: number, action = 'x', metadata: Record<string, unknown> = {}) =>
    ({ id, occurredAt: at(s).toISOString(), action, metadata }) as unknown as Event;
  const entry = (id: string, s: number, remoteUnlockId: string | null = null) =>
    ({ id, occurredAt: at(s), remoteUnlockId }) as unknown as Entry;

  it('orders them by time, an audit row first on a tie', () => {
    expect(
      timelineItems([event('a1', 1), event('a2', 5)], [entry('e0', 0), entry('e2', 5), entry('e3', 9)]).map(
        (item) => item.id,
      ),
    ).toEqual(['e0', 'a1', 'a2', 'e2', 'e3']);
    expect(timelineItems([], [])).toEqual([]);
  });

  it('puts an opening caused by a remote unlock after the unlock’s own row, even when the lock’s clock says earlier', () => {
    const request = event('request', 5, 'door.unlocked_remotely', { remoteUnlockId: 'u-1' });
    const items = timelineItems([event('a1', 1), request], [entry('opened', 4, 'u-1'), entry('other', 4, 'u-2')]);
    expect(items.map((item) => item.id)).toEqual(['a1', 'other', 'request', 'opened']);
    expect(items.find((item) => item.id === 'opened')).toMatchObject({ followsRequest: true });
    expect(items.find((item) => item.id === 'other')).toMatchObject({ followsRequest: false });
  });
});
