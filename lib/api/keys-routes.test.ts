import { describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { routeHandler } from './router';

const checkIn = routeHandler('POST', '/api/v1/reservations/{id}/check-in');
const reservationKeys = routeHandler('GET', '/api/v1/reservations/{id}/keys');
const checkInKey = routeHandler('POST', '/api/v1/check-ins/{id}/key');
const revoke = routeHandler('POST', '/api/v1/keys/{id}/revoke');

type Handler = (request: Request, route: { params: Promise<{ id: string }> }) => Promise<Response>;

async function tenantWithKey() {
  const tenant = await createBookableTenant();
  const { key } = await createApiKey({ tenantId: tenant.tenantId, name: 'pms', actor: TEST_ACTOR });
  return { ...tenant, apiKey: key };
}

function send(handler: Handler, apiKey: string, id: string, body?: unknown, init: RequestInit = {}) {
  const request = new Request(`http://test/api/v1/x/${id}`, {
    method: body === undefined && !init.body ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    body: init.body ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  return handler(request, { params: Promise.resolve({ id }) });
}

describe('the key routes of /api/v1', () => {
  it('check in once, answer the same check-in and key again, and list the keys', async () => {
    const t = await tenantWithKey();
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const first = await send(checkIn, t.apiKey, reservationId, {});
    expect(first.status).toBe(200);
    const a = (await first.json()).data;
    expect(a).toMatchObject({
      checkInId: expect.any(String),
      key: { status: 'active' },
      revokedKeyIds: [expect.any(String)],
    });
    const b = (await (await send(checkIn, t.apiKey, reservationId, {})).json()).data;
    expect(b).toEqual(a);

    const concurrent = await Promise.all(Array.from({ length: 10 }, () => send(checkInKey, t.apiKey, a.checkInId, {})));
    const keys = await Promise.all(concurrent.map((r) => r.json()));
    expect(new Set(keys.map((k) => k.data.id))).toEqual(new Set([a.key.id]));

    const listed = await (await send(reservationKeys, t.apiKey, reservationId)).json();
    // A list, as every list answers (API.md, Conventions): its one page, so no cursor.
    expect(listed.nextCursor).toBeNull();
    const list = listed.data;
    expect(list.map((k: { id: string; status: string }) => [k.id, k.status])).toEqual([
      [a.key.id, 'active'],
      [a.revokedKeyIds[0], 'revoked'],
    ]);
    expect(list[1]).toMatchObject({ revokedReason: 'superseded_by_checkin' });
  });

  it('revoke a key with a reason, and answer 409 illegal_transition from a terminal state', async () => {
    const t = await tenantWithKey();
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const { key } = (await (await send(checkIn, t.apiKey, reservationId, {})).json()).data;
    const revoked = await send(revoke, t.apiKey, key.id, { reason: 'lost phone' });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).data).toMatchObject({ id: key.id, status: 'revoked', revokedReason: 'lost phone' });
    const again = await send(revoke, t.apiKey, key.id, { reason: 'again' });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({ code: 'illegal_transition', from: 'revoked', to: 'revoked' });
  });

  it('refuse bad input with 400 and write nothing', async () => {
    const t = await tenantWithKey();
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const { key } = (await (await send(checkIn, t.apiKey, reservationId, {})).json()).data;
    const cases: [Handler, string, RequestInit][] = [
      [revoke, key.id, { body: JSON.stringify({}) }],
      [revoke, key.id, { body: JSON.stringify({ reason: '' }) }],
      [revoke, key.id, { body: JSON.stringify({ reason: 'x'.repeat(201) }) }],
      [revoke, key.id, { body: '{"reason": ' }],
      [revoke, key.id, { body: JSON.stringify({ reason: 'ok' }), headers: { 'content-type': 'text/plain' } }],
      [revoke, 'not-a-uuid', { body: JSON.stringify({ reason: 'ok' }) }],
      [checkIn, "1' or '1'='1", { body: '{}' }],
    ];
    for (const [handler, id, init] of cases) {
      const response = await send(handler, t.apiKey, id, undefined, init);
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('invalid_request');
    }
    const huge = await send(revoke, t.apiKey, key.id, undefined, {
      body: JSON.stringify({ reason: 'x'.repeat(300 * 1024) }),
    });
    expect(huge.status).toBe(413);
    const admin = await adminClient();
    const { rows } = await admin.query(`select status from access_keys where id = $1`, [key.id]);
    expect(rows[0].status).toBe('active');
    await admin.end();
  });

  it("answer 404 for another tenant's ids and change nothing", async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const { reservationId } = await bookRoom({ tenantId: b.tenantId, roomId: b.roomIds[0]! });
    const bCheckIn = (await (await send(checkIn, b.apiKey, reservationId, {})).json()).data;
    const responses = [
      await send(checkIn, a.apiKey, reservationId, {}),
      await send(reservationKeys, a.apiKey, reservationId),
      await send(checkInKey, a.apiKey, bCheckIn.checkInId, {}),
      await send(revoke, a.apiKey, bCheckIn.key.id, { reason: 'hostile' }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
    }
    const admin = await adminClient();
    const { rows } = await admin.query(`select status from access_keys where id = $1`, [bCheckIn.key.id]);
    expect(rows[0].status).toBe('active');
    await admin.end();
  });
});
