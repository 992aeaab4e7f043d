import { describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { routeHandler } from './router';

const checkIn = routeHandler('POST', '/api/v1/reservations/{id}/check-in');
const checkOut = routeHandler('POST', '/api/v1/reservations/{id}/check-out');
const move = routeHandler('POST', '/api/v1/reservations/{id}/move');
const change = routeHandler('PATCH', '/api/v1/reservations/{id}');
const reissue = routeHandler('POST', '/api/v1/keys/{id}/reissue');
const revoke = routeHandler('POST', '/api/v1/keys/{id}/revoke');
const listStaffCodes = routeHandler('GET', '/api/v1/rooms/{id}/staff-codes');
const createStaffCode = routeHandler('POST', '/api/v1/rooms/{id}/staff-codes');

type Handler = (request: Request, route: { params: Promise<{ id: string }> }) => Promise<Response>;

async function tenantWithKey(rooms = 2) {
  const tenant = await createBookableTenant({ rooms });
  const { key } = await createApiKey({ tenantId: tenant.tenantId, name: 'pms', actor: TEST_ACTOR });
  return { ...tenant, apiKey: key };
}

function send(handler: Handler, apiKey: string, id: string, method: string, body?: unknown, init: RequestInit = {}) {
  const request = new Request(`http://test/api/v1/x/${id}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    body: init.body ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  return handler(request, { params: Promise.resolve({ id }) });
}

async function countAudit(tenantId: string): Promise<number> {
  const admin = await adminClient();
  try {
    const { rows } = await admin.query(`select count(*)::int as n from audit_events where tenant_id = $1`, [tenantId]);
    return rows[0].n;
  } finally {
    await admin.end();
  }
}

describe('the stay-change routes of /api/v1', () => {
  it('a shift over the API: check in, move, extend, re-issue, check out — each answered as API.md says', async () => {
    const t = await tenantWithKey();
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const early = await send(checkOut, t.apiKey, reservationId, 'POST');
    expect(early.status).toBe(409);
    expect((await early.json()).error).toMatchObject({ code: 'reservation_not_ready' });

    const { key } = (await (await send(checkIn, t.apiKey, reservationId, 'POST', {})).json()).data;
    const moved = await send(move, t.apiKey, reservationId, 'POST', { roomId: t.roomIds[1], reason: 'leak' });
    expect(moved.status).toBe(200);
    expect((await moved.json()).data).toMatchObject({ id: reservationId, roomId: t.roomIds[1], roomLabel: '102' });

    const current = (await (await send(change, t.apiKey, reservationId, 'PATCH', {})).json()) as { error: unknown };
    expect(current.error).toMatchObject({ code: 'invalid_request' });
    const endsAt = new Date(Date.now() + 49 * 3_600_000).toISOString();
    const extended = await send(change, t.apiKey, reservationId, 'PATCH', { endsAt });
    expect(extended.status).toBe(200);
    expect((await extended.json()).data).toMatchObject({ endsAt, status: 'checked_in' });

    const admin = await adminClient();
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1 and status = 'active'`, [
      reservationId,
    ]);
    await admin.end();
    expect(rows[0].id).not.toBe(key.id);
    const reissued = await send(reissue, t.apiKey, rows[0].id, 'POST', { reason: 'PIN disclosed' });
    expect(reissued.status).toBe(200);
    const fresh = (await reissued.json()).data;
    expect(fresh).toMatchObject({ status: 'active', kind: 'guest', expiresAt: endsAt });
    const again = await send(reissue, t.apiKey, rows[0].id, 'POST', { reason: 'PIN disclosed' });
    expect((await again.json()).data.id).toBe(fresh.id);

    const out = await send(checkOut, t.apiKey, reservationId, 'POST');
    expect(out.status).toBe(200);
    expect((await out.json()).data).toMatchObject({ status: 'checked_out' });
    const audits = await countAudit(t.tenantId);
    const outAgain = await send(checkOut, t.apiKey, reservationId, 'POST', {});
    expect((await outAgain.json()).data).toMatchObject({ status: 'checked_out' });
    expect(await countAudit(t.tenantId)).toBe(audits);

    const late = await send(change, t.apiKey, reservationId, 'PATCH', { endsAt });
    expect(late.status).toBe(409);
    expect((await late.json()).error).toMatchObject({ code: 'illegal_transition', from: 'checked_out' });
  });

  it('a taken room is 409 room_unavailable with a clear message, and nothing is written', async () => {
    const t = await tenantWithKey();
    const a = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 30 });
    await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[1]!, startsInHours: 30 });
    const audits = await countAudit(t.tenantId);
    const taken = await send(move, t.apiKey, a.reservationId, 'POST', { roomId: t.roomIds[1], reason: 'x' });
    expect(taken.status).toBe(409);
    expect((await taken.json()).error).toMatchObject({
      code: 'room_unavailable',
      message: expect.stringMatching(/booked/),
    });
    expect(await countAudit(t.tenantId)).toBe(audits);
  });

  it('staff codes: 201 on create with who made it, listed, revoked like any key; bad input is 400', async () => {
    const t = await tenantWithKey(1);
    const startsAt = new Date(Date.now() + 3_600_000).toISOString();
    const endsAt = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const created = await send(createStaffCode, t.apiKey, t.roomIds[0]!, 'POST', {
      label: 'Daily clean',
      purpose: 'housekeeping',
      startsAt,
      endsAt,
    });
    expect(created.status).toBe(201);
    const code = (await created.json()).data;
    expect(code).toMatchObject({
      kind: 'staff',
      status: 'active',
      purpose: 'housekeeping',
      label: 'Daily clean',
      issuedBy: 'API key “pms”',
      pin: expect.stringMatching(/^\d+$/),
    });
    const list = (await (await send(listStaffCodes, t.apiKey, t.roomIds[0]!, 'GET')).json()).data;
    expect(list.map((c: { id: string }) => c.id)).toEqual([code.id]);
    const revoked = await send(revoke, t.apiKey, code.id, 'POST', { reason: 'done' });
    expect((await revoked.json()).data).toMatchObject({ status: 'revoked', pin: null, kind: 'staff' });

    for (const body of [
      { label: 'x', purpose: 'party', startsAt, endsAt },
      { label: 'x', purpose: 'maintenance', startsAt: endsAt, endsAt: startsAt },
      { label: '', purpose: 'maintenance', startsAt, endsAt },
    ]) {
      const bad = await send(createStaffCode, t.apiKey, t.roomIds[0]!, 'POST', body);
      expect(bad.status).toBe(400);
    }
  });
});
