import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { cancelReservation } from '../bookings/cancel-reservation';
import { createRoomType, setRoomType } from '../room-types/save-room-type';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { routeHandler } from './router';

const listTypes = routeHandler('GET', '/api/v1/room-types');
const pay = routeHandler('POST', '/api/v1/reservations/{id}/payments');

async function tenantWithKey() {
  const tenant = await createBookableTenant({ rooms: 2, lockDevices: false });
  const { key } = await createApiKey({ tenantId: tenant.tenantId, name: 'pms', actor: TEST_ACTOR });
  return { ...tenant, apiKey: key };
}

const auth = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
const payFor = (apiKey: string, id: string, body: unknown) =>
  pay(
    new Request(`http://test/api/v1/reservations/${id}/payments`, {
      method: 'POST',
      headers: auth(apiKey),
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({ id }) },
  );

let admin: pg.Client;
let a: Awaited<ReturnType<typeof tenantWithKey>>;
let b: Awaited<ReturnType<typeof tenantWithKey>>;
beforeAll(async () => {
  admin = await adminClient();
  [a, b] = await Promise.all([tenantWithKey(), tenantWithKey()]);
});
afterAll(() => admin.end());

describe('GET /api/v1/room-types', () => {
  it('lists the tenant’s room types with the weekday rate, the facility’s currency and unit, and their rooms', async () => {
    const { id } = await createRoomType({
      tenantId: a.tenantId,
      facilityId: a.facilityId,
      settings: {
        name: 'Twin',
        description: '',
        capacity: 2,
        weekdayCents: 9000,
        weekendCents: 11000,
        holidayCents: null,
      },
      actor: TEST_ACTOR,
    });
    await setRoomType({ tenantId: a.tenantId, roomId: a.roomIds[1]!, roomTypeId: id, actor: TEST_ACTOR });
    const response = await listTypes(new Request('http://test/api/v1/room-types', { headers: auth(a.apiKey) }), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: [
        {
          id,
          facilityId: a.facilityId,
          name: 'Twin',
          capacity: 2,
          rateCents: 9000,
          currency: 'jpy',
          unit: 'night',
          roomIds: [a.roomIds[1]],
        },
      ],
      nextCursor: null,
    });
    const theirs = await listTypes(new Request('http://test/api/v1/room-types', { headers: auth(b.apiKey) }), {
      params: Promise.resolve({}),
    });
    expect((await theirs.json()).data).toEqual([]);
  });
});

describe('POST /api/v1/reservations/{id}/payments', () => {
  it('answers 201 with the payment, marks the stay paid and audits reservation.paid with amount and method', async () => {
    const { reservationId } = await bookRoom({ tenantId: a.tenantId, roomId: a.roomIds[0]! });
    const response = await payFor(a.apiKey, reservationId, {
      amountCents: 24000,
      method: 'card_terminal',
      note: 'Two nights',
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      data: {
        id: expect.any(String),
        reservationId,
        amountCents: 24000,
        currency: 'jpy',
        method: 'card_terminal',
        note: 'Two nights',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    });
    const { rows } = await admin.query(
      `select r.paid_at is not null as paid, e.actor_type, e.metadata->>'amount' as amount, e.metadata->>'method' as method
         from reservations r join audit_events e on e.subject_id = r.id and e.action = 'reservation.paid' where r.id = $1`,
      [reservationId],
    );
    expect(rows).toEqual([{ paid: true, actor_type: 'api_key', amount: '24000', method: 'card_terminal' }]);
  });

  it('answers 400 for a bad body, 404 for another tenant’s stay, 409 for a cancelled one, writing nothing', async () => {
    const { reservationId } = await bookRoom({ tenantId: a.tenantId, roomId: a.roomIds[1]!, startsInHours: 100 });
    for (const body of [
      { amountCents: 0, method: 'cash' },
      { amountCents: 100, method: 'cheque' },
      { amountCents: 1.5, method: 'cash' },
      '{',
    ])
      expect((await payFor(a.apiKey, reservationId, body)).status, JSON.stringify(body)).toBe(400);
    const foreign = await payFor(b.apiKey, reservationId, { amountCents: 100, method: 'cash' });
    expect({ status: foreign.status, code: (await foreign.json()).error.code }).toEqual({
      status: 404,
      code: 'not_found',
    });
    await cancelReservation({ tenantId: a.tenantId, reservationId, reason: 'test', actor: TEST_ACTOR });
    const cancelled = await payFor(a.apiKey, reservationId, { amountCents: 100, method: 'cash' });
    expect({ status: cancelled.status, code: (await cancelled.json()).error.code }).toEqual({
      status: 409,
      code: 'illegal_transition',
    });
    const { rows } = await admin.query(
      `select (select count(*)::int from payments where reservation_id = $1) as payments,
              (select paid_at from reservations where id = $1) as paid_at`,
      [reservationId],
    );
    expect(rows).toEqual([{ payments: 0, paid_at: null }]);
  });
});
