import { describe, expect, it } from 'vitest';
import { bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { completeCheckIn } from '../stays/complete-check-in';
import { reservationView } from './reservation-page';

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
});
