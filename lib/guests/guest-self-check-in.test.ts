import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashGuestToken } from '../auth/guest-links';
import { asGuest } from '../db/tx';
import { moveReservation } from '../stays/move-reservation';
import { adminClient, bookRoom, bookWindow, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { routeHandler } from '../api/router';
import { getGuestPage } from './get-guest-page';

const checkInRoute = routeHandler('POST', '/api/guest/{token}/check-in');
const checkOutRoute = routeHandler('POST', '/api/guest/{token}/check-out');
const keyRoute = routeHandler('POST', '/api/guest/{token}/key');
const statusRoute = routeHandler('GET', '/api/guest/{token}/status');

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const route = (token: string) => ({ params: Promise.resolve({ token }) });
const post = (handler: typeof checkInRoute, token: string, what: string) =>
  handler(new Request(`http://test/api/guest/${token}/${what}`, { method: 'POST' }), route(token));
const checkIn = (token: string) => post(checkInRoute, token, 'check-in');
const checkOut = (token: string) => post(checkOutRoute, token, 'check-out');
const postKey = (token: string) => post(keyRoute, token, 'key');
const status = (token: string) => statusRoute(new Request(`http://test/api/guest/${token}/status`), route(token));

/** A tenant whose facility checks guests in `mode`, and a booking in it starting in `startsInHours`. */
async function stayAt(
  mode: 'desk' | 'self',
  { startsInHours = 2, registration = 'none', earlyCheckInMinutes = 60 } = {},
) {
  const tenant = await createBookableTenant({ name: `Self ${mode}`, earlyCheckInMinutes });
  await admin.query(
    `update facilities set check_in_mode = $2, registration = $3, self_check_in_opens_hours = 24 where id = $1`,
    [tenant.facilityId, mode, registration],
  );
  const booked = await bookRoom({ tenantId: tenant.tenantId, roomId: tenant.roomIds[0]!, startsInHours });
  const { rows } = await admin.query(`select starts_at from reservations where id = $1`, [booked.reservationId]);
  return { ...tenant, ...booked, startsAt: rows[0].starts_at as Date };
}

const counts = async (reservationId: string) =>
  (
    await admin.query(
      `select (select count(*)::int from check_ins where reservation_id = $1) as check_ins,
              (select count(*)::int from access_keys where reservation_id = $1 and status = 'active') as active,
              (select count(*)::int from access_keys where reservation_id = $1) as keys`,
      [reservationId],
    )
  ).rows[0];

describe('POST /api/guest/{token}/check-in', () => {
  it('is too_early before startsAt − self_check_in_opens_hours, with opensAt, and writes nothing', async () => {
    const stay = await stayAt('self', { startsInHours: 30 });
    const response = await checkIn(stay.token);
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 'too_early' });
    expect(Date.parse(body.error.opensAt)).toBe(stay.startsAt.getTime() - 24 * 3_600_000);
    expect(await counts(stay.reservationId)).toEqual({ check_ins: 0, active: 0, keys: 1 });
  });

  it('is desk_check_in where the desk checks guests in', async () => {
    const stay = await stayAt('desk');
    const response = await checkIn(stay.token);
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('desk_check_in');
    expect(await counts(stay.reservationId)).toMatchObject({ check_ins: 0, active: 0 });
  });

  it('is registration_required at a jp facility until the register is complete (app_registration_complete)', async () => {
    const stay = await stayAt('self', { registration: 'jp' });
    const response = await checkIn(stay.token);
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('registration_required');
    expect(await counts(stay.reservationId)).toMatchObject({ check_ins: 0, active: 0 });
  });

  it('checks in once for two phones at once and a retry: one check-in, one key, audited with the guest as actor', async () => {
    const stay = await stayAt('self');
    // Each request is its own transaction on its own connection: they really race for the stay's row lock.
    const responses = await Promise.all(Array.from({ length: 6 }, () => checkIn(stay.token)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    for (const response of responses) expect(response.status).toBe(200);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0].data).toMatchObject({ status: 'active', roomLabel: '101', pin: expect.stringMatching(/^\d{6}$/) });
    const again = await (await checkIn(stay.token)).json();
    expect(again).toEqual(bodies[0]);
    expect(await counts(stay.reservationId)).toEqual({ check_ins: 1, active: 1, keys: 2 });
    const { rows } = await admin.query(
      `select actor_type, action, count(*)::int as n from audit_events
        where tenant_id = $1 and action in ('checkin.completed', 'key.issued') group by 1, 2 order by 2`,
      [stay.tenantId],
    );
    expect(rows).toEqual([
      { actor_type: 'guest', action: 'checkin.completed', n: 1 },
      { actor_type: 'guest', action: 'key.issued', n: 1 },
    ]);
    const checkIns = await admin.query(`select early, self_check_in from check_ins where reservation_id = $1`, [
      stay.reservationId,
    ]);
    expect(checkIns.rows).toEqual([{ early: false, self_check_in: true }]);
  });

  it('issues a key that works no earlier than the early check-in allows, nor while the stay before is live', async () => {
    // Opened 20 h before the start; the facility lets a key work 60 minutes early.
    const stay = await stayAt('self', { startsInHours: 20, earlyCheckInMinutes: 60 });
    const response = await checkIn(stay.token);
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(Date.parse(data.validFrom)).toBe(stay.startsAt.getTime() - 60 * 60_000);

    // The room's stay before ends 30 minutes before this one starts: the key waits for it.
    const second = await stayAt('self', { startsInHours: 20, earlyCheckInMinutes: 60 });
    const before = new Date(second.startsAt.getTime() - 30 * 60_000);
    await bookWindow(second.tenantId, second.roomIds[0]!, new Date(before.getTime() - 3_600_000 * 3), before);
    const late = await (await checkIn(second.token)).json();
    expect(Date.parse(late.data.validFrom)).toBe(before.getTime());
  });

  it('keeps that rule when the desk moves the stay afterwards (the new key goes through the same window)', async () => {
    const stay = await stayAt('self', { startsInHours: 20, earlyCheckInMinutes: 60 });
    expect((await checkIn(stay.token)).status).toBe(200);
    await moveReservation({
      tenantId: stay.tenantId,
      reservationId: stay.reservationId,
      roomId: stay.roomIds[1]!,
      reason: 'upgrade',
      actor: TEST_ACTOR,
    });
    const { rows } = await admin.query(
      `select room_id as "roomId", valid_from as "validFrom" from access_keys where reservation_id = $1 and status = 'active'`,
      [stay.reservationId],
    );
    expect(rows).toEqual([{ roomId: stay.roomIds[1], validFrom: new Date(stay.startsAt.getTime() - 60 * 60_000) }]);
  });

  it('lets the desk still check a guest in at a self check-in facility; the guest then sees that key', async () => {
    // Within the facility's early check-in, so the desk's check-in is open too.
    const stay = await stayAt('self', { startsInHours: 0.5 });
    const { completeCheckIn } = await import('../stays/complete-check-in');
    const { key } = await completeCheckIn({
      tenantId: stay.tenantId,
      reservationId: stay.reservationId,
      actor: TEST_ACTOR,
    });
    expect((await (await postKey(stay.token)).json()).data.id).toBe(key.id);
    expect((await (await checkIn(stay.token)).json()).data.id).toBe(key.id);
  });

  it('races a desk move of the reservation: one check-in, one live key, on the room the stay ends up in', async () => {
    const stay = await stayAt('self');
    const [guest, desk] = await Promise.allSettled([
      checkIn(stay.token),
      moveReservation({
        tenantId: stay.tenantId,
        reservationId: stay.reservationId,
        roomId: stay.roomIds[1]!,
        reason: 'upgrade',
        actor: TEST_ACTOR,
      }),
    ]);
    expect(guest.status).toBe('fulfilled');
    expect(desk.status).toBe('fulfilled');
    expect(guest.status === 'fulfilled' && guest.value.status).toBe(200);
    const { rows } = await admin.query(
      `select r.room_id as "roomId", r.status,
              (select count(*)::int from check_ins c where c.reservation_id = r.id) as "checkIns",
              (select array_agg(k.room_id) from access_keys k where k.reservation_id = r.id and k.status = 'active') as "liveRooms"
         from reservations r where r.id = $1`,
      [stay.reservationId],
    );
    expect(rows[0]).toEqual({
      roomId: stay.roomIds[1],
      status: 'checked_in',
      checkIns: 1,
      liveRooms: [stay.roomIds[1]],
    });
    // The phone then shows that key (the room it opens is the new one).
    const key = await (await postKey(stay.token)).json();
    expect(key.data).toMatchObject({ status: 'active', roomLabel: '102' });
  });
});

describe('no PIN before check-in at a self check-in facility', () => {
  it('shows no key through /key, /status, the page or the guest policy, then the stay key after check-in', async () => {
    const stay = await stayAt('self', { startsInHours: 30 });
    const preIssued = await admin.query(
      `select id from access_keys where reservation_id = $1 and status = 'pre_issued'`,
      [stay.reservationId],
    );
    expect(preIssued.rows).toHaveLength(1);

    const key = await postKey(stay.token);
    expect(key.status).toBe(409);
    const keyBody = await key.json();
    expect(keyBody.error).toMatchObject({ code: 'check_in_required' });
    expect(Date.parse(keyBody.error.opensAt)).toBe(stay.startsAt.getTime() - 24 * 3_600_000);
    expect(JSON.stringify(keyBody)).not.toMatch(/"pin"/);

    const polled = await (await status(stay.token)).json();
    expect(polled.data).toMatchObject({ key: null, selfCheckIn: { opensAt: keyBody.error.opensAt } });

    const page = await getGuestPage(stay.token, '203.0.113.60');
    expect(page).toMatchObject({ kind: 'live', initial: { key: null } });

    // The guest policy itself: app_anon holding the link reads none of the stay's keys.
    const seen = await asGuest({ guestTokenHash: Buffer.from(hashGuestToken(stay.token)).toString('hex') }, (tx) =>
      tx.accessKey.findMany({ select: { id: true } }),
    );
    expect(seen).toEqual([]);

    // Once the window is open and the guest checks in, the stay key is there on every path.
    await admin.query(`update facilities set self_check_in_opens_hours = 48 where id = $1`, [stay.facilityId]);
    const checkedIn = await (await checkIn(stay.token)).json();
    const after = await (await status(stay.token)).json();
    expect(after.data.key).toMatchObject({ id: checkedIn.data.id, pin: checkedIn.data.pin });
    expect((await (await postKey(stay.token)).json()).data.id).toBe(checkedIn.data.id);
  });
});

describe('POST /api/guest/{token}/check-out', () => {
  it('ends the stay now, revokes its keys at once, frees the room from now, audited; twice → the same answer', async () => {
    const stay = await stayAt('self', { startsInHours: -2 });
    expect((await checkIn(stay.token)).status).toBe(200);

    const notYet = await stayAt('self', { startsInHours: 5 });
    const refused = await checkOut(notYet.token);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe('reservation_not_ready');

    const first = await checkOut(stay.token);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ data: { status: 'checked_out' } });
    const again = await checkOut(stay.token);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ data: { status: 'checked_out' } });

    const { rows } = await admin.query(
      `select r.status, r.ends_at <= now() as ended,
              (select array_agg(distinct k.status::text || ':' || coalesce(k.revoked_reason, '')) from access_keys k
                where k.reservation_id = r.id and k.check_in_id is not null) as keys
         from reservations r where r.id = $1`,
      [stay.reservationId],
    );
    expect(rows[0]).toEqual({ status: 'checked_out', ended: true, keys: ['revoked:checked_out'] });
    const audit = await admin.query(
      `select actor_type, count(*)::int as n from audit_events where tenant_id = $1 and action = 'checkout.completed' group by 1`,
      [stay.tenantId],
    );
    expect(audit.rows).toEqual([{ actor_type: 'guest', n: 1 }]);

    // The room is free from now: a stay starting a minute from now fits where the booked stay was.
    const next = new Date(Date.now() + 60_000);
    await expect(
      bookWindow(stay.tenantId, stay.roomIds[0]!, next, new Date(next.getTime() + 3_600_000)),
    ).resolves.toEqual(expect.any(String));

    // The link now shows the ended stay, no key.
    expect((await postKey(stay.token)).status).toBe(404);
    const polled = await (await status(stay.token)).json();
    expect(polled.data).toMatchObject({ stay: { status: 'checked_out' }, key: null });
  });
});
