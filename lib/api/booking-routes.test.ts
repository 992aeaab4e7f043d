import { describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { routeHandler } from './router';

const createGroup = routeHandler('POST', '/api/v1/booking-groups');
const listReservations = routeHandler('GET', '/api/v1/reservations');
const getReservation = routeHandler('GET', '/api/v1/reservations/{id}');
const cancel = routeHandler('POST', '/api/v1/reservations/{id}/cancel');

async function tenantWithKey(rooms = 3) {
  const tenant = await createBookableTenant({ rooms });
  const { key } = await createApiKey({ tenantId: tenant.tenantId, name: 'pms', actor: TEST_ACTOR });
  return { ...tenant, apiKey: key };
}

const auth = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
const post = (apiKey: string, body: unknown) =>
  createGroup(
    new Request('http://test/api/v1/booking-groups', {
      method: 'POST',
      headers: auth(apiKey),
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
const list = (apiKey: string, query: string) =>
  listReservations(new Request(`http://test/api/v1/reservations?${query}`, { headers: auth(apiKey) }), {
    params: Promise.resolve({}),
  });
const iso = (days: number) => new Date(Date.UTC(2027, 0, 1) + days * 86_400_000).toISOString();

describe('POST /api/v1/booking-groups', () => {
  it('answers 201 with the group and its reservations', async () => {
    const t = await tenantWithKey();
    const response = await post(t.apiKey, {
      guest: { name: 'Ren Ito', email: 'ren@example.com' },
      reservations: [{ roomId: t.roomIds[0], startsAt: iso(0), endsAt: iso(2) }],
    });
    expect(response.status).toBe(201);
    const { data } = await response.json();
    expect(data).toMatchObject({ id: expect.any(String), status: 'unpaid', paymentIntentId: null });
    expect(data.reservations[0]).toEqual({
      id: expect.any(String),
      bookingGroupId: data.id,
      roomId: t.roomIds[0],
      roomLabel: '101',
      startsAt: iso(0),
      endsAt: iso(2),
      status: 'confirmed',
      paid: false,
      source: 'api',
      externalRef: null,
      guest: { id: expect.any(String), name: 'Ren Ito' },
      guestDisplay: 'Ren Ito',
      guestUrl: expect.stringMatching(/^http.*\/k\/[A-Za-z0-9_-]{43}$/),
    });
  });

  it('answers 409 room_unavailable with the rooms that failed, holding nothing', async () => {
    const t = await tenantWithKey();
    await post(t.apiKey, {
      guest: { name: 'First' },
      reservations: [{ roomId: t.roomIds[1], startsAt: iso(10), endsAt: iso(12) }],
    });
    const response = await post(t.apiKey, {
      guest: { name: 'Second' },
      reservations: [
        { roomId: t.roomIds[0], startsAt: iso(10), endsAt: iso(12) },
        { roomId: t.roomIds[1], startsAt: iso(11), endsAt: iso(13) },
      ],
    });
    expect(response.status).toBe(409);
    expect((await response.json()).error).toMatchObject({ code: 'room_unavailable', roomIds: [t.roomIds[1]] });
    const held = await list(t.apiKey, `roomId=${t.roomIds[0]}`);
    expect((await held.json()).data).toEqual([]);
  });

  it('refuses malformed bodies with 400 and writes nothing', async () => {
    const t = await tenantWithKey();
    const room = t.roomIds[0];
    const bodies: unknown[] = [
      '{"guest":',
      {},
      { guest: { name: 'x' }, reservations: [] },
      {
        guest: { name: 'x' },
        reservations: Array.from({ length: 51 }, (_, i) => ({
          roomId: room,
          startsAt: iso(i * 2),
          endsAt: iso(i * 2 + 1),
        })),
      },
      { guest: { name: 'x' }, reservations: [{ roomId: room, startsAt: iso(5), endsAt: iso(4) }] },
      { guest: { name: 'x' }, reservations: [{ roomId: room, startsAt: '2027-02-30T00:00:00Z', endsAt: iso(100) }] },
      { guest: { name: 'x' }, reservations: [{ roomId: room, startsAt: '2027-01-01', endsAt: iso(100) }] },
      {
        guest: { name: 'x' },
        reservations: [{ roomId: "'; drop table reservations; --", startsAt: iso(1), endsAt: iso(2) }],
      },
      { guest: { name: 'x', role: 'admin' }, reservations: [{ roomId: room, startsAt: iso(1), endsAt: iso(2) }] },
      {
        guest: { name: 'x' },
        reservations: [{ roomId: room, startsAt: iso(1), endsAt: iso(2) }],
        paymentIntentId: 'not-an-intent',
      },
    ];
    for (const body of bodies) {
      const response = await post(t.apiKey, body);
      expect({ body: JSON.stringify(body).slice(0, 60), status: response.status }).toEqual({
        body: JSON.stringify(body).slice(0, 60),
        status: 400,
      });
      expect((await response.json()).error.code).toBe('invalid_request');
    }
    const admin = await adminClient();
    const { rows } = await admin.query(`select count(*)::int as n from reservations where tenant_id = $1`, [
      t.tenantId,
    ]);
    expect(rows[0].n).toBe(0);
    await admin.end();
  });

  it('answers 404 for another tenant’s room, holding nothing', async () => {
    const a = await tenantWithKey(1);
    const b = await tenantWithKey(1);
    const response = await post(a.apiKey, {
      guest: { name: 'x' },
      reservations: [{ roomId: b.roomIds[0], startsAt: iso(1), endsAt: iso(2) }],
    });
    expect(response.status).toBe(404);
  });
});

describe('GET /api/v1/reservations and /reservations/{id}, POST /reservations/{id}/cancel', () => {
  it('lists reservations overlapping [from, to), page by page', async () => {
    const t = await tenantWithKey(1);
    for (let i = 0; i < 5; i++)
      await post(t.apiKey, {
        guest: { name: `G${i}` },
        reservations: [{ roomId: t.roomIds[0], startsAt: iso(20 + i * 2), endsAt: iso(21 + i * 2) }],
      });
    const window = `from=${encodeURIComponent(iso(21))}&to=${encodeURIComponent(iso(27))}`;
    const page1 = await (await list(t.apiKey, `${window}&limit=2`)).json();
    expect(page1.data.map((r: { startsAt: string }) => r.startsAt)).toEqual([iso(22), iso(24)]);
    const page2 = await (await list(t.apiKey, `${window}&limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.data.map((r: { startsAt: string }) => r.startsAt)).toEqual([iso(26)]);
    expect(page2.nextCursor).toBeNull();
    for (const bad of [
      'limit=201',
      'limit=0',
      'from=yesterday',
      'cursor=%%%',
      'status=lost',
      `from=${encodeURIComponent(iso(5))}&to=${encodeURIComponent(iso(1))}`,
    ]) {
      expect((await list(t.apiKey, bad)).status).toBe(400);
    }
  });

  it('gets and cancels one reservation; another tenant’s id is 404 and stays untouched', async () => {
    const a = await tenantWithKey(1);
    const b = await tenantWithKey(1);
    const created = (
      await (
        await post(a.apiKey, {
          guest: { name: 'Keep' },
          reservations: [{ roomId: a.roomIds[0], startsAt: iso(40), endsAt: iso(41) }],
        })
      ).json()
    ).data;
    const id = created.reservations[0].id;
    const get = (key: string) =>
      getReservation(new Request(`http://test/api/v1/reservations/${id}`, { headers: auth(key) }), {
        params: Promise.resolve({ id }),
      });
    const doCancel = (key: string) =>
      cancel(
        new Request(`http://test/x`, {
          method: 'POST',
          headers: auth(key),
          body: JSON.stringify({ reason: 'no show' }),
        }),
        { params: Promise.resolve({ id }) },
      );
    expect((await (await get(a.apiKey)).json()).data).toEqual(created.reservations[0]);
    expect((await get(b.apiKey)).status).toBe(404);
    expect((await doCancel(b.apiKey)).status).toBe(404);
    expect((await (await get(a.apiKey)).json()).data.status).toBe('confirmed');
    const cancelled = await doCancel(a.apiKey);
    expect(await cancelled.json()).toEqual({ data: { id, status: 'cancelled' } });
    expect((await (await get(a.apiKey)).json()).data.status).toBe('cancelled');
  });
});
