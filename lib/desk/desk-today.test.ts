import { describe, expect, it, vi } from 'vitest';
import { appPool } from '../db/client';
import { liveKeysOf } from '../keys/live-keys-of';
import { offlineCodesStillValid } from '../keys/offline-codes-still-valid';
import { tenantTimeZone } from '../rooms/list-facilities';
import { checkInWindows } from '../stays/check-in-windows';
import { completeCheckIn } from '../stays/complete-check-in';
import { bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { deskDay } from './desk-day';
import { deskSyncState } from './desk-sync-state';
import { readDeskToday } from './desk-today';

describe("the desk's arrivals page, read in two round trips", () => {
  it('answers what each of its reads answers alone, for this tenant only, in two round trips', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const arriving = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Aiko Arrives' });
    const staying = await bookRoom({ tenantId, roomId: roomIds[1]!, guestName: 'Ben Stays' });
    await completeCheckIn({ tenantId, reservationId: staying.reservationId, actor: TEST_ACTOR });
    const other = await createBookableTenant({ rooms: 1 });
    const foreign = await bookRoom({ tenantId: other.tenantId, roomId: other.roomIds[0]!, guestName: 'Not Ours' });
    // An hour after both stays start: whatever the hour, the first arrives today and the second is in house.
    const now = new Date(Date.now() + 2 * 3_600_000);

    const query = vi.spyOn(appPool(), 'query');
    let today: Awaited<ReturnType<typeof readDeskToday>>;
    try {
      today = await readDeskToday({ tenantId, now });
      expect(query).toHaveBeenCalledTimes(2);
    } finally {
      query.mockRestore();
    }

    expect(today.day.arrivals.map((s) => s.id)).toEqual([arriving.reservationId]);
    expect(today.day.inHouse.map((s) => s.id)).toEqual([staying.reservationId]);
    expect(today.ids).not.toContain(foreign.reservationId);
    expect(today.keys.get(arriving.reservationId)).toMatchObject({ status: 'pre_issued' });
    expect(today.keys.get(staying.reservationId)).toMatchObject({ status: 'active' });
    expect(JSON.stringify([...today.keys.values()])).not.toMatch(/"pin"/);

    // The same answers as each read on its own: the page's sync state is the one the open page then polls,
    // so its fingerprint must match, or every desk screen would reload once as soon as it opened.
    expect(today.zone).toBe(await tenantTimeZone({ tenantId }));
    expect(today.day).toEqual(await deskDay({ tenantId, now }));
    expect(today.keys).toEqual(await liveKeysOf({ tenantId, reservationIds: today.ids }));
    expect(today.windows).toEqual(
      await checkInWindows({ tenantId, reservationIds: today.day.arrivals.map((s) => s.id) }),
    );
    expect(today.offlineCodes).toEqual(
      await offlineCodesStillValid({ tenantId, reservationIds: today.day.inHouse.map((s) => s.id), now }),
    );
    expect(today.sync).toEqual(await deskSyncState({ tenantId, reservationIds: today.ids }));
    expect(today.sync.fingerprint).toMatch(/^[0-9a-f]{32}$/);
  });
});
