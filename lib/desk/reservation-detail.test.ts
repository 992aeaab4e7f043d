import { describe, expect, it } from 'vitest';
import { rotateGuestLink } from '../guests/rotate-guest-link';
import { bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { reservationDetail } from './reservation-detail';

describe('a reservation’s detail for the desk', () => {
  it('shows the stay, its keys without PINs and the live guest link only; null for another tenant', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const other = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Mai Abe' });
    await rotateGuestLink({ tenantId, reservationId, actor: TEST_ACTOR });
    const detail = await reservationDetail({ tenantId, reservationId });
    expect(detail).toMatchObject({
      id: reservationId,
      status: 'confirmed',
      guest: { name: 'Mai Abe' },
      room: { facility: { timeZone: 'Asia/Tokyo' } },
    });
    // The rotation re-issued the key (a new PIN for the new link): the old one revoked, the new one live.
    expect(detail!.accessKeys.map((k) => k.status).sort()).toEqual(['pre_issued', 'revoked']);
    const live = detail!.accessKeys.find((k) => k.status === 'pre_issued')!;
    expect(live).not.toHaveProperty('pin');
    // What the key card shows: its kind, when it was issued, and each door by its lock's name.
    expect(live).toMatchObject({
      kind: 'guest',
      backupFor: null,
      createdAt: expect.any(Date),
      doors: [{ state: 'pending', offline: false, error: null, lock: { name: expect.stringMatching(/^\d+101$/) } }],
    });
    expect(detail!.guestLinks).toHaveLength(1);
    expect(await reservationDetail({ tenantId: other.tenantId, reservationId })).toBeNull();
  });
});
