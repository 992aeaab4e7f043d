import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { cancelReservation } from '../bookings/cancel-reservation';
import { recordPayment, reservationPayments } from './record-payment';

let admin: pg.Client;
let mine: Awaited<ReturnType<typeof createBookableTenant>>;
let theirs: Awaited<ReturnType<typeof createBookableTenant>>;

beforeAll(async () => {
  admin = await adminClient();
  [mine, theirs] = await Promise.all([
    createBookableTenant({ lockDevices: false, rooms: 1 }),
    createBookableTenant({ lockDevices: false, rooms: 1 }),
  ]);
});
afterAll(() => admin.end());

describe('recordPayment', () => {
  it('records a payment in the facility’s currency, marks the stay paid once, audits each payment', async () => {
    const { reservationId } = await bookRoom({ tenantId: mine.tenantId, roomId: mine.roomIds[0]! });
    const first = await recordPayment({
      tenantId: mine.tenantId,
      reservationId,
      amountCents: 12000,
      method: 'cash',
      note: ' deposit ',
      actor: TEST_ACTOR,
    });
    expect(first).toMatchObject({
      reservationId,
      amountCents: 12000,
      currency: 'jpy',
      method: 'cash',
      note: 'deposit',
    });
    const paidAt = (await admin.query(`select paid_at from reservations where id = $1`, [reservationId])).rows[0]
      .paid_at;
    expect(paidAt).toBeInstanceOf(Date);
    await recordPayment({
      tenantId: mine.tenantId,
      reservationId,
      amountCents: 3000,
      method: 'card_terminal',
      actor: TEST_ACTOR,
    });
    expect(
      (await admin.query(`select paid_at from reservations where id = $1`, [reservationId])).rows[0].paid_at,
    ).toEqual(paidAt);
    const panel = await reservationPayments({ tenantId: mine.tenantId, reservationId });
    expect({ ...panel, payments: panel?.payments.map((p) => [p.amountCents, p.method]) }).toEqual({
      paid: true,
      currency: 'jpy',
      payments: [
        [12000, 'cash'],
        [3000, 'card_terminal'],
      ],
    });
    expect(await reservationPayments({ tenantId: theirs.tenantId, reservationId })).toBeNull();
    const { rows } = await admin.query(
      `select metadata->>'amount' as amount, metadata->>'method' as method from audit_events
        where subject_id = $1 and action = 'reservation.paid' order by occurred_at, id`,
      [reservationId],
    );
    expect(rows).toEqual([
      { amount: '12000', method: 'cash' },
      { amount: '3000', method: 'card_terminal' },
    ]);
  });

  it('refuses a cancelled stay (illegal_transition) and another tenant’s (not_found), writing nothing', async () => {
    const { reservationId } = await bookRoom({ tenantId: mine.tenantId, roomId: mine.roomIds[0]!, startsInHours: 72 });
    await expect(
      recordPayment({ tenantId: theirs.tenantId, reservationId, amountCents: 100, method: 'cash', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await cancelReservation({ tenantId: mine.tenantId, reservationId, reason: 'test', actor: TEST_ACTOR });
    await expect(
      recordPayment({ tenantId: mine.tenantId, reservationId, amountCents: 100, method: 'cash', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'illegal_transition' });
    const { rows } = await admin.query(
      `select (select count(*)::int from payments where reservation_id = $1) as payments,
              (select paid_at from reservations where id = $1) as paid_at,
              (select count(*)::int from audit_events where subject_id = $1 and action = 'reservation.paid') as audits`,
      [reservationId],
    );
    expect(rows).toEqual([{ payments: 0, paid_at: null, audits: 0 }]);
  });
});
