import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { reissueKey } from '../keys/reissue-key';
import { revokeKey } from '../keys/revoke-key';
import { adminClient, bookRoom, bookWindow, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { checkOutReservation } from './check-out';
import { completeCheckIn } from './complete-check-in';
import { issueCheckInKey } from './issue-check-in-key';
import { routeHandler } from '../api/router';

const checkInRoute = routeHandler('POST', '/api/v1/reservations/{id}/check-in');
const checkInKeyRoute = routeHandler('POST', '/api/v1/check-ins/{id}/key');
const reissueRoute = routeHandler('POST', '/api/v1/keys/{id}/reissue');

// Issue 28, item 3: a key is issued only for a stay that is checked in and not over, and a staff
// revocation is never undone by the next tap — only a re-issue with a reason makes a successor.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

type Handler = (request: Request, route: { params: Promise<{ id: string }> }) => Promise<Response>;

function send(handler: Handler, apiKey: string, id: string, body: unknown = {}) {
  const request = new Request(`http://test/api/v1/x/${id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return handler(request, { params: Promise.resolve({ id }) });
}

async function liveKeys(reservationId: string) {
  const { rows } = await admin.query(
    `select id, status from access_keys where reservation_id = $1 and status in ('pre_issued', 'active') order by created_at`,
    [reservationId],
  );
  return rows;
}

async function keyCount(reservationId: string): Promise<number> {
  const { rows } = await admin.query(`select count(*)::int as n from access_keys where reservation_id = $1`, [
    reservationId,
  ]);
  return rows[0].n;
}

async function checkedIn() {
  const t = await createBookableTenant();
  const { key: apiKey } = await createApiKey({ tenantId: t.tenantId, name: 'pms', actor: TEST_ACTOR });
  const booked = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
  const checkIn = await completeCheckIn({
    tenantId: t.tenantId,
    reservationId: booked.reservationId,
    actor: TEST_ACTOR,
  });
  return { ...t, ...booked, apiKey, checkIn };
}

describe('no key after check-out', () => {
  it('POST /check-ins/{id}/key and the check-in again answer 409 illegal_transition, issuing nothing', async () => {
    const s = await checkedIn();
    await checkOutReservation({ tenantId: s.tenantId, reservationId: s.reservationId, actor: TEST_ACTOR });
    const before = await keyCount(s.reservationId);

    const key = await send(checkInKeyRoute, s.apiKey, s.checkIn.checkInId);
    expect(key.status).toBe(409);
    expect((await key.json()).error.code).toBe('illegal_transition');
    const again = await send(checkInRoute, s.apiKey, s.reservationId);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('illegal_transition');
    await expect(
      issueCheckInKey({ tenantId: s.tenantId, checkInId: s.checkIn.checkInId, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'illegal_transition' });

    expect(await liveKeys(s.reservationId)).toEqual([]);
    expect(await keyCount(s.reservationId)).toBe(before);
  });

  it('a re-issue of a checked-out stay’s key is refused', async () => {
    const s = await checkedIn();
    await checkOutReservation({ tenantId: s.tenantId, reservationId: s.reservationId, actor: TEST_ACTOR });
    const before = await keyCount(s.reservationId);
    const answer = await send(reissueRoute, s.apiKey, s.checkIn.key.id, { reason: 'lost phone' });
    expect(answer.status).toBe(409);
    expect((await answer.json()).error.code).toBe('illegal_transition');
    expect(await keyCount(s.reservationId)).toBe(before);
  });
});

describe('a revocation stays a revocation', () => {
  it('after staff revoked the stay key, the key call and the check-in call answer 409 key_revoked, issuing nothing', async () => {
    const s = await checkedIn();
    await revokeKey({ tenantId: s.tenantId, keyId: s.checkIn.key.id, reason: 'guest evicted', actor: TEST_ACTOR });
    const before = await keyCount(s.reservationId);

    const taps = await Promise.all(
      Array.from({ length: 5 }, () => send(checkInKeyRoute, s.apiKey, s.checkIn.checkInId)),
    );
    for (const tap of taps) {
      expect(tap.status).toBe(409);
      expect((await tap.json()).error.code).toBe('key_revoked');
    }
    const again = await send(checkInRoute, s.apiKey, s.reservationId);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('key_revoked');
    expect(await liveKeys(s.reservationId)).toEqual([]);
    expect(await keyCount(s.reservationId)).toBe(before);
  });

  it('only a re-issue with a reason makes a successor, which the key call then answers', async () => {
    const s = await checkedIn();
    await revokeKey({ tenantId: s.tenantId, keyId: s.checkIn.key.id, reason: 'pin disclosed', actor: TEST_ACTOR });
    const successor = await reissueKey({
      tenantId: s.tenantId,
      keyId: s.checkIn.key.id,
      reason: 'new pin for the guest',
      actor: TEST_ACTOR,
    });
    expect(successor).toMatchObject({ status: 'active' });
    const key = await issueCheckInKey({ tenantId: s.tenantId, checkInId: s.checkIn.checkInId, actor: TEST_ACTOR });
    expect(key.id).toBe(successor.id);
    expect((await liveKeys(s.reservationId)).map((k) => k.id)).toEqual([successor.id]);
  });
});

describe('an early check-out ends the stay then (issue 28, item 12)', () => {
  it('the stay’s end becomes the check-out time and the room is free from then', async () => {
    const t = await createBookableTenant();
    const room = t.roomIds[0]!;
    const booked = await bookRoom({ tenantId: t.tenantId, roomId: room, startsInHours: -2, hours: 48 });
    await completeCheckIn({ tenantId: t.tenantId, reservationId: booked.reservationId, actor: TEST_ACTOR });
    const before = Date.now();
    const out = await checkOutReservation({
      tenantId: t.tenantId,
      reservationId: booked.reservationId,
      actor: TEST_ACTOR,
    });
    const { rows } = await admin.query(`select ends_at from reservations where id = $1`, [booked.reservationId]);
    expect(rows[0].ends_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(rows[0].ends_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(out.endsAt).getTime()).toBe(rows[0].ends_at.getTime());
    const { rows: audit } = await admin.query(
      `select metadata from audit_events where subject_id = $1 and action = 'checkout.completed'`,
      [booked.reservationId],
    );
    expect(audit[0].metadata.bookedEndsAt).toEqual(expect.any(String));
    // The nights the guest left are for sale again.
    const next = await bookWindow(
      t.tenantId,
      room,
      new Date(Date.now() + 60_000),
      new Date(Date.now() + 40 * 3_600_000),
    );
    expect(next).toEqual(expect.any(String));
  });

  it('a check-out before the stay even started (an early check-in) ends it at the check-out too', async () => {
    const t = await createBookableTenant({ earlyCheckInMinutes: 0 });
    const room = t.roomIds[0]!;
    const booked = await bookRoom({ tenantId: t.tenantId, roomId: room, startsInHours: 5, hours: 24 });
    await completeCheckIn({
      tenantId: t.tenantId,
      reservationId: booked.reservationId,
      actor: TEST_ACTOR,
      early: true,
    });
    await checkOutReservation({ tenantId: t.tenantId, reservationId: booked.reservationId, actor: TEST_ACTOR });
    const { rows } = await admin.query(`select starts_at, ends_at from reservations where id = $1`, [
      booked.reservationId,
    ]);
    expect(rows[0].ends_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(rows[0].starts_at.getTime()).toBeLessThan(rows[0].ends_at.getTime());
    const next = await bookWindow(
      t.tenantId,
      room,
      new Date(Date.now() + 60_000),
      new Date(Date.now() + 30 * 3_600_000),
    );
    expect(next).toEqual(expect.any(String));
  });
});
