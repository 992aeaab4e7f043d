import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHandler } from '../api/router';
import { createBookingGroup } from '../bookings/create-booking-group';
import { zonedDateTime } from '../bookings/stay-window';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { createBookingSite, trustTestClientAddresses } from '../../tooling/testing/booking-site';

// Issue 43.4: a stay's unpaid extension holds are bounded in PostgreSQL (app_request_stay_extension). One live hold
// per stay; asking another end while it lasts replaces it but keeps its end (a chain of holds lasts one hold's
// time); once a hold lapsed unpaid, a new one waits 15 minutes (409 extension_pending with retryAt); a hold adds at
// most 14 days.

const ZONE = 'Asia/Tokyo';
const extensionRoute = routeHandler('POST', '/api/guest/{token}/extension');
let admin: pg.Client;
beforeAll(async () => {
  trustTestClientAddresses();
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const checkIn = (date: string) => zonedDateTime(date, '15:00', ZONE);
const checkOut = (date: string) => zonedDateTime(date, '10:00', ZONE);

/** A confirmed stay at a facility that takes payment online: the tenant, the stay and its guest link's token. */
async function onlineStay(from: string, to: string) {
  const site = await createBookingSite(admin, {
    rooms: 1,
    payment: 'online',
    stripeAccount: `acct_${randomBytes(8).toString('hex')}`,
  });
  const group = await createBookingGroup({
    tenantId: site.tenantId,
    actor: TEST_ACTOR,
    guest: { name: 'Aiko', email: `aiko-${randomBytes(3).toString('hex')}@example.com` },
    source: 'api',
    reservations: [{ roomId: site.roomIds[0]!, startsAt: checkIn(from), endsAt: checkOut(to) }],
  });
  const reservation = group.reservations[0]!;
  return { tenantId: site.tenantId, reservationId: reservation.id, token: reservation.guestLinkToken };
}

type Hold = { id: string; status: string; ends_at: Date; hold_expires_at: Date | null };

/** The SQL function every extension goes through, asking an online hold from the stay's current end to `until`. */
async function holdUntil(stay: { tenantId: string; reservationId: string }, until: Date): Promise<Hold> {
  const { rows } = await admin.query<Hold>(
    `select e.id, e.status::text, e.ends_at, e.hold_expires_at
       from reservations r,
            lateral app_request_stay_extension(r.tenant_id, r.id, r.ends_at, $3, 12000, 'jpy', 'online', 15) e
      where r.tenant_id = $1 and r.id = $2`,
    [stay.tenantId, stay.reservationId, until],
  );
  return rows[0]!;
}

const sqlstateOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: { code?: string }) => error.code,
  );

async function extensions(reservationId: string) {
  const { rows } = await admin.query(
    `select status::text, hold_expires_at from stay_extensions where reservation_id = $1 order by created_at, id`,
    [reservationId],
  );
  return rows as { status: string; hold_expires_at: Date | null }[];
}

async function extendByRoute(token: string, checkOutDay: string) {
  const response = await extensionRoute(
    new Request(`http://test/api/guest/${token}/extension`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-unlockos-client-address': '2001:db8:43::7' },
      body: JSON.stringify({ checkOut: checkOutDay }),
    }),
    { params: Promise.resolve({ token }) },
  );
  return { status: response.status, body: await response.json() };
}

describe('extension holds (issue 43.4)', () => {
  it('replacing a live hold keeps its end: asking again and again never renews it', async () => {
    const stay = await onlineStay('2027-09-06', '2027-09-07');
    const first = await holdUntil(stay, checkOut('2027-09-09'));
    expect(first.status).toBe('held');
    const again = await holdUntil(stay, checkOut('2027-09-09'));
    expect(again.id).toBe(first.id);
    for (const day of ['2027-09-08', '2027-09-10', '2027-09-09']) {
      const replaced = await holdUntil(stay, checkOut(day));
      expect(replaced.status).toBe('held');
      expect(replaced.hold_expires_at).toEqual(first.hold_expires_at);
    }
    const rows = await extensions(stay.reservationId);
    expect(rows.filter((r) => r.status === 'held')).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'released')).toHaveLength(3);
  });

  it('after a hold lapsed unpaid, a new one waits 15 minutes: 409 extension_pending with retryAt, nothing held', async () => {
    const stay = await onlineStay('2027-09-13', '2027-09-14');
    const first = await holdUntil(stay, checkOut('2027-09-16'));
    // Its 15 minutes are over (the release job has not run yet): the guest asks again at once.
    await admin.query(`update stay_extensions set hold_expires_at = now() - interval '1 minute' where id = $1`, [
      first.id,
    ]);
    expect(await sqlstateOf(holdUntil(stay, checkOut('2027-09-16')))).toBe('UR007');
    const refused = await extendByRoute(stay.token, '2027-09-15');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('extension_pending');
    const retryAt = Date.parse(refused.body.error.retryAt);
    expect(retryAt - (Date.now() - 60_000)).toBeGreaterThan(14 * 60_000);
    expect(retryAt - (Date.now() - 60_000)).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect((await extensions(stay.reservationId)).map((r) => r.status)).toEqual(['held']);
    const { rows } = await admin.query(`select count(*)::int as n from room_holds where extension_id = $1`, [first.id]);
    expect(rows[0].n).toBe(1);

    // Released by its job; still within the 15 minutes: refused; after them: a new hold.
    await admin.query(`select app_release_stay_extension($1, $2, 'payment_timeout', false)`, [stay.tenantId, first.id]);
    expect(await sqlstateOf(holdUntil(stay, checkOut('2027-09-16')))).toBe('UR007');
    await admin.query(`update stay_extensions set updated_at = now() - interval '16 minutes' where id = $1`, [
      first.id,
    ]);
    expect((await holdUntil(stay, checkOut('2027-09-16'))).status).toBe('held');
  });

  it('refuses an online hold of more than 14 days, writing nothing', async () => {
    const stay = await onlineStay('2027-10-04', '2027-10-05');
    expect(await sqlstateOf(holdUntil(stay, checkOut('2027-10-20')))).toBe('UR003');
    expect((await holdUntil(stay, checkOut('2027-10-19'))).status).toBe('held');
    expect(await extensions(stay.reservationId)).toHaveLength(1);
  });
});
