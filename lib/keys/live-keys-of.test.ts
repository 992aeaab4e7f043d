import { describe, expect, it } from 'vitest';
import { completeCheckIn } from '../stays/complete-check-in';
import { bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { liveKeysOf } from './live-keys-of';

describe('the live keys of reservations', () => {
  it('are the newest live key of each, without a PIN; ended keys and other tenants’ reservations are left out', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const other = await createBookableTenant();
    const arriving = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const inHouse = await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: -1 });
    const { key } = await completeCheckIn({ tenantId, reservationId: inHouse.reservationId, actor: TEST_ACTOR });
    const foreign = await bookRoom({ tenantId: other.tenantId, roomId: other.roomIds[0]! });
    const keys = await liveKeysOf({
      tenantId,
      reservationIds: [arriving.reservationId, inHouse.reservationId, foreign.reservationId],
    });
    expect(keys.get(arriving.reservationId)).toMatchObject({ status: 'pre_issued' });
    expect(keys.get(inHouse.reservationId)).toMatchObject({ id: key.id, status: 'active' });
    expect(keys.has(foreign.reservationId)).toBe(false);
    expect(keys.get(inHouse.reservationId)).not.toHaveProperty('pin');
  });
});
