import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { changeReservationDates } from './change-dates';
import { checkOutReservation } from './check-out';
import { completeCheckIn } from './complete-check-in';
import { moveReservation } from './move-reservation';

// Decision 018: a write that is one SQL function is one round trip. A stay change is the function and
// the reservation read back, sent as one implicit transaction.
const original = pg.Client.prototype.query;
let sent: string[] = [];
afterEach(() => {
  pg.Client.prototype.query = original;
});

async function roundTrips<T>(fn: () => Promise<T>): Promise<{ result: T; trips: number }> {
  sent = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0];
    sent.push(typeof config === 'string' ? config : ((config as { text?: string })?.text ?? ''));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    return { result: await fn(), trips: sent.length };
  } finally {
    pg.Client.prototype.query = original;
  }
}

describe('a stay change', () => {
  it('is one round trip each — new dates, a move, a check-out — answering the reservation as it became', async () => {
    const t = await createBookableTenant({ rooms: 2, lockDevices: false });
    const stay = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 1, hours: 24 });
    const endsAt = new Date(Date.now() + 30 * 3_600_000);
    endsAt.setUTCSeconds(0, 0);

    const dates = await roundTrips(() =>
      changeReservationDates({ tenantId: t.tenantId, reservationId: stay.reservationId, endsAt, actor: TEST_ACTOR }),
    );
    expect(dates.trips).toBe(1);
    expect(dates.result).toMatchObject({ id: stay.reservationId, endsAt: endsAt.toISOString(), status: 'confirmed' });
    expect(dates.result.guestUrl).toMatch(/\/k\//);

    const moved = await roundTrips(() =>
      moveReservation({
        tenantId: t.tenantId,
        reservationId: stay.reservationId,
        roomId: t.roomIds[1]!,
        reason: "guest's request",
        actor: TEST_ACTOR,
      }),
    );
    expect(moved.trips).toBe(1);
    expect(moved.result).toMatchObject({ id: stay.reservationId, roomId: t.roomIds[1], roomLabel: '102' });

    await completeCheckIn({ tenantId: t.tenantId, reservationId: stay.reservationId, actor: TEST_ACTOR });
    const out = await roundTrips(() =>
      checkOutReservation({ tenantId: t.tenantId, reservationId: stay.reservationId, actor: TEST_ACTOR }),
    );
    expect(out.trips).toBe(1);
    expect(out.result).toMatchObject({ id: stay.reservationId, status: 'checked_out' });
  });

  it("of another tenant's reservation is not_found and writes nothing", async () => {
    const a = await createBookableTenant({ rooms: 1, lockDevices: false });
    const b = await createBookableTenant({ rooms: 1, lockDevices: false });
    const stay = await bookRoom({ tenantId: a.tenantId, roomId: a.roomIds[0]! });
    await expect(
      changeReservationDates({
        tenantId: b.tenantId,
        reservationId: stay.reservationId,
        endsAt: new Date(Date.now() + 40 * 3_600_000),
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
