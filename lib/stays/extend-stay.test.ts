import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHandler } from '../api/router';
import { zonedDateTime, zonedToday, addDays } from '../bookings/stay-window';
import { createBookingGroup } from '../bookings/create-booking-group';
import { addRoomLock } from '../locks/locks';
import { processWebhookEvent } from '../webhooks/process-event';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { createBookingSite, trustTestClientAddresses } from '../../tooling/testing/booking-site';
import { deliverAndProcessStripe } from '../../tooling/testing/stripe-events';
import type { StandinRequest, StripeStandin } from '../../tooling/stripe-standin/stripe-standin';
import { startStandinWithApp, type TStandinApp } from '../../tooling/testing/stripe-standin-app';
import { completeCheckIn } from './complete-check-in';
import { releaseStayExtension } from './extend-stay';

// A guest's extension of their stay (issue 31, item 4; decision 029), through the guest route, against a real
// PostgreSQL and the local Stripe stand-in: priced by the rate table, refused over another stay, racing a booking,
// applied at once with the keys re-windowed in place, or held while paid through Checkout.

const extensionRoute = routeHandler('POST', '/api/guest/{token}/extension');
const ZONE = 'Asia/Tokyo';
let admin: pg.Client;
let harness: TStandinApp;
let standin: StripeStandin;
let stripeCalls: StandinRequest[];
let SECRET: string;
beforeAll(async () => {
  trustTestClientAddresses();
  admin = await adminClient();
  harness = await startStandinWithApp();
  ({ standin, calls: stripeCalls, secret: SECRET } = harness);
});
afterAll(async () => {
  await harness.close();
  await admin.end();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read answers of many shapes
async function extend(token: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await extensionRoute(
    new Request(`http://test/api/guest/${token}/extension`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
      },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ token }) },
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const checkIn = (date: string) => zonedDateTime(date, '15:00', ZONE);
const checkOut = (date: string) => zonedDateTime(date, '10:00', ZONE);

/** A confirmed stay of `roomId` from the check-in time of `from` to the check-out time of `to`; its id and link. */
async function stay(tenantId: string, roomId: string, from: Date, to: Date) {
  const group = await createBookingGroup({
    tenantId,
    actor: TEST_ACTOR,
    guest: { name: 'Aiko', email: `aiko-${randomBytes(3).toString('hex')}@example.com` },
    source: 'api',
    reservations: [{ roomId, startsAt: from, endsAt: to }],
  });
  return { reservationId: group.reservations[0]!.id, token: group.reservations[0]!.guestLinkToken };
}

async function endOf(reservationId: string): Promise<string> {
  const { rows } = await admin.query(`select ends_at from reservations where id = $1`, [reservationId]);
  return (rows[0].ends_at as Date).toISOString();
}

async function extensionsOf(reservationId: string) {
  const { rows } = await admin.query(
    `select status::text, amount_cents, ends_at, paid_at is not null as paid, refund_id is not null as refunded,
            (select count(*)::int from room_holds h where h.extension_id = e.id) as holds
       from stay_extensions e where reservation_id = $1 order by created_at`,
    [reservationId],
  );
  return rows;
}

async function countOf(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await admin.query(sql, params);
  return rows[0].n as number;
}

const stayChangedMails = (reservationId: string) =>
  countOf(`select count(*)::int as n from messages where reservation_id = $1 and kind = 'stay_changed'`, [
    reservationId,
  ]);

describe('POST /api/guest/{token}/extension — price and room', () => {
  it('prices the added nights only, by the rate table: weekend and holiday-eve nights', async () => {
    const site = await createBookingSite(admin, { rooms: 1, payment: 'at_property' });
    // Wed 28 Apr → Fri 30 Apr 2027; extended to Tue 4 May: Fri and Sat nights (weekend), Sun 2 and Mon 3 May
    // (the eves of Constitution Day and Greenery Day: holiday).
    const s = await stay(site.tenantId, site.roomIds[0]!, checkIn('2027-04-28'), checkOut('2027-04-30'));
    const answer = await extend(s.token, { endsAt: checkOut('2027-05-04').toISOString() });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      status: 'extended',
      amountCents: 15000 + 15000 + 18000 + 18000,
      paymentUrl: null,
    });
    expect(await endOf(s.reservationId)).toBe(checkOut('2027-05-04').toISOString());
    // The new end's nights are owed at the property: recorded on the extension, no payment taken.
    expect(await extensionsOf(s.reservationId)).toMatchObject([
      { status: 'applied', amount_cents: 66000, paid: false },
    ]);
  });

  it('takes the check-out day as `checkOut` too, and refuses an end not later, not at check-out time, or forged', async () => {
    const site = await createBookingSite(admin, { rooms: 1, payment: 'none' });
    const s = await stay(site.tenantId, site.roomIds[0]!, checkIn('2027-07-05'), checkOut('2027-07-06'));
    for (const body of [
      { endsAt: checkOut('2027-07-06').toISOString() },
      { endsAt: checkOut('2027-07-05').toISOString() },
      { endsAt: zonedDateTime('2027-07-08', '12:00', ZONE).toISOString() },
      { endsAt: 'tomorrow' },
      { checkOut: '2027-07-08', amountCents: 1 },
    ]) {
      const refused = await extend(s.token, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
    }
    expect(await extensionsOf(s.reservationId)).toEqual([]);
    const answer = await extend(s.token, { checkOut: '2027-07-07' }); // Tue night: weekday
    expect(answer.body.data).toEqual({ status: 'extended', amountCents: 12000, paymentUrl: null });
    expect(await endOf(s.reservationId)).toBe(checkOut('2027-07-07').toISOString());
    expect((await extend('not-a-token', { checkOut: '2027-07-09' })).status).toBe(404);
  });

  it('answers 409 room_unavailable with the latest end possible when the next stay holds the room, writing nothing', async () => {
    const site = await createBookingSite(admin, { rooms: 1, payment: 'at_property' });
    const s = await stay(site.tenantId, site.roomIds[0]!, checkIn('2027-05-10'), checkOut('2027-05-12'));
    await stay(site.tenantId, site.roomIds[0]!, checkIn('2027-05-14'), checkOut('2027-05-16'));
    const refused = await extend(s.token, { endsAt: checkOut('2027-05-15').toISOString() });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'room_unavailable',
      latestEndsAt: checkOut('2027-05-14').toISOString(),
    });
    expect(await endOf(s.reservationId)).toBe(checkOut('2027-05-12').toISOString());
    expect(await extensionsOf(s.reservationId)).toEqual([]);
    // Up to the latest end is fine.
    expect((await extend(s.token, { endsAt: checkOut('2027-05-14').toISOString() })).body.data.status).toBe('extended');
  });

  it('lets exactly one of an extension and another booking for the same nights have the room, every time', async () => {
    const site = await createBookingSite(admin, { rooms: 1, payment: 'at_property' });
    for (const [from, to, until] of [
      ['2027-08-02', '2027-08-03', '2027-08-05'],
      ['2027-08-10', '2027-08-11', '2027-08-13'],
      ['2027-08-20', '2027-08-21', '2027-08-23'],
    ] as const) {
      const s = await stay(site.tenantId, site.roomIds[0]!, checkIn(from), checkOut(to));
      const [extension, booking] = await Promise.allSettled([
        extend(s.token, { checkOut: until }),
        stay(site.tenantId, site.roomIds[0]!, checkIn(addDays(to, 1)), checkOut(addDays(to, 2))),
      ]);
      const extended = extension.status === 'fulfilled' && extension.value.status === 200;
      const booked = booking.status === 'fulfilled';
      expect([extended, booked].filter(Boolean)).toHaveLength(1);
      if (!extended && extension.status === 'fulfilled') {
        expect(extension.value.body.error.code).toBe('room_unavailable');
        expect(extension.value.body.error.latestEndsAt).toBe(checkOut(addDays(to, 1)).toISOString());
      }
      if (booking.status === 'rejected') expect((booking.reason as { code?: string }).code).toBe('room_unavailable');
      // What the database holds agrees: the room's stays never overlap.
      expect(
        await countOf(
          `select count(*)::int as n from room_holds a join room_holds b on a.room_id = b.room_id
            and a.reservation_id < b.reservation_id and a.during && b.during where a.room_id = $1`,
          [site.roomIds[0]],
        ),
      ).toBe(0);
    }
  });
});

describe('an extension applied at once (payment none or at the property)', () => {
  it('moves the stay’s end and its key’s end in place on every door: same key, same PIN, one stay_changed mail', async () => {
    const t = await createBookableTenant({ rooms: 2 });
    await admin.query(`update facilities set payment_mode = 'at_property' where id = $1`, [t.facilityId]);
    await admin.query(`update rooms set rate_cents = 9000 where tenant_id = $1`, [t.tenantId]);
    // A second door on room 101: the lock of room 102.
    const { rows: locks } = await admin.query(`select lock_id from room_locks where room_id = $1`, [t.roomIds[1]]);
    await addRoomLock({
      tenantId: t.tenantId,
      roomId: t.roomIds[0]!,
      lockId: locks[0].lock_id,
      role: 'entrance',
      actor: TEST_ACTOR,
    });
    const startsAt = new Date(Date.now() + 3_600_000);
    const endsAt = new Date(startsAt.getTime() + 24 * 3_600_000);
    const s = await stay(t.tenantId, t.roomIds[0]!, startsAt, endsAt);
    const { key } = await completeCheckIn({
      tenantId: t.tenantId,
      reservationId: s.reservationId,
      actor: TEST_ACTOR,
      early: true,
    });
    const doorsBefore = await countOf(`select count(*)::int as n from key_lock_codes where key_id = $1`, [key.id]);
    expect(doorsBefore).toBe(2);
    const mailsBefore = await stayChangedMails(s.reservationId);
    const day = addDays(zonedToday(endsAt, ZONE), 2);
    const answer = await extend(s.token, { checkOut: day });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ status: 'extended', amountCents: 18000, paymentUrl: null });
    const newEnd = checkOut(day).toISOString();
    expect(await endOf(s.reservationId)).toBe(newEnd);
    const { rows: keys } = await admin.query(
      `select id, pin, status::text, expires_at from access_keys where reservation_id = $1 and status in ('pre_issued', 'active')`,
      [s.reservationId],
    );
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: key.id, pin: key.pin, status: 'active' });
    expect((keys[0].expires_at as Date).toISOString()).toBe(newEnd);
    const { rows: doors } = await admin.query(`select rewindow from key_lock_codes where key_id = $1`, [key.id]);
    expect(doors.map((d) => d.rewindow)).toEqual([true, true]);
    expect(
      await countOf(
        `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where j.payload->>'keyId' = $1 and t.identifier = 'vendor_rewindow_key'`,
        [key.id],
      ),
    ).toBe(1);
    const { rows: audit } = await admin.query(
      `select actor_type::text, actor_label from audit_events where subject_id = $1 and action = 'reservation.changed'`,
      [s.reservationId],
    );
    expect(audit).toEqual([{ actor_type: 'guest', actor_label: 'guest link' }]);
    expect((await stayChangedMails(s.reservationId)) - mailsBefore).toBe(1);
  });

  it('extends only a live stay: a cancelled or checked-out stay’s link answers 404', async () => {
    const site = await createBookingSite(admin, { rooms: 1, payment: 'none' });
    const s = await stay(site.tenantId, site.roomIds[0]!, checkIn('2027-09-01'), checkOut('2027-09-02'));
    await admin.query(`select cancel_reservation($1, $2, 'guest', 'guest', 'system', null, 'test')`, [
      site.tenantId,
      s.reservationId,
    ]);
    expect((await extend(s.token, { checkOut: '2027-09-03' })).status).toBe(404);
    expect(await extensionsOf(s.reservationId)).toEqual([]);
  });
});

describe('an extension paid online through Stripe Checkout', () => {
  // The payment page's URL is /pay/{session id}/{the page's own secret}.
  const sessionIdOf = (url: string) => url.split('/pay/')[1]!.split('/')[0]!;

  async function heldExtension(account: string, from: string, to: string, until: string) {
    const site = await createBookingSite(admin, { rooms: 1, payment: 'online', stripeAccount: account });
    const s = await stay(site.tenantId, site.roomIds[0]!, checkIn(from), checkOut(to));
    const answer = await extend(s.token, { checkOut: until });
    expect(answer.status).toBe(200);
    return { site, ...s, answer: answer.body.data };
  }

  async function processStripe(tenantId: string, expected: number) {
    for (let i = 0; i < 100; i++) {
      const n = await countOf(
        `select count(*)::int as n from webhook_events where provider = 'stripe' and tenant_id = $1`,
        [tenantId],
      );
      if (n >= expected) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { rows } = await admin.query(
      `select id from webhook_events where provider = 'stripe' and tenant_id = $1 and status = 'received' order by received_at`,
      [tenantId],
    );
    for (const row of rows) await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
  }

  const replayOf = (session: object, account: string) => ({
    id: `evt_replay_${randomBytes(6).toString('hex')}`,
    object: 'event',
    type: 'checkout.session.completed',
    account,
    created: Math.floor(Date.now() / 1000),
    data: { object: { ...session, account: undefined } },
  });

  it('holds the added nights and opens Checkout for the difference; the paid webhook applies it once, replayed twice', async () => {
    const { site, reservationId, token, answer } = await heldExtension(
      'acct_ext1',
      '2027-10-04',
      '2027-10-05',
      '2027-10-07',
    );
    // Mon 4 Oct → Tue 5; two weekday nights more.
    expect(answer).toMatchObject({ status: 'awaiting_payment', amountCents: 24000 });
    expect(answer.paymentUrl).toContain(`${standin.url}/pay/cs_`);
    expect(await endOf(reservationId)).toBe(checkOut('2027-10-05').toISOString());
    expect(await extensionsOf(reservationId)).toMatchObject([{ status: 'held', holds: 1, paid: false }]);
    // Its release is a job at the hold's end, 15 minutes on, written with the hold.
    const { rows: jobs } = await admin.query(
      `select extract(epoch from j.run_at - e.hold_expires_at)::int as lag, extract(epoch from e.hold_expires_at - e.created_at)::int as hold
         from stay_extensions e
         join graphile_worker._private_jobs j on j.payload->>'extensionId' = e.id::text
         join graphile_worker._private_tasks t on t.id = j.task_id and t.identifier = 'release_stay_extension'
        where e.reservation_id = $1`,
      [reservationId],
    );
    expect(jobs).toEqual([{ lag: 0, hold: 900 }]);
    const created = stripeCalls.filter(
      (c) =>
        c.path === '/v1/checkout/sessions' &&
        c.form['metadata[kind]'] === 'stay_extension' &&
        c.stripeAccount === 'acct_ext1',
    );
    expect(created).toHaveLength(1);
    expect(created[0]!.form).toMatchObject({
      'line_items[0][price_data][unit_amount]': '24000',
      'line_items[0][price_data][currency]': 'jpy',
      success_url: expect.stringContaining(`/k/${token}`),
    });
    // The same request again (a double tap): the same hold and the same page.
    expect((await extend(token, { checkOut: '2027-10-07' })).body.data).toEqual(answer);
    // The held nights are taken: another booking for them is refused.
    await expect(
      stay(site.tenantId, site.roomIds[0]!, checkIn('2027-10-05'), checkOut('2027-10-06')),
    ).rejects.toMatchObject({
      code: 'room_unavailable',
    });
    const mailsBefore = await stayChangedMails(reservationId);

    const paid = await fetch(answer.paymentUrl, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toContain(`/k/${token}`);
    await processStripe(site.tenantId, 1);
    const applied = async () => ({
      end: await endOf(reservationId),
      extensions: await extensionsOf(reservationId),
      payments: await countOf(`select count(*)::int as n from payments where reservation_id = $1`, [reservationId]),
      changes: await countOf(
        `select count(*)::int as n from audit_events where subject_id = $1 and action = 'reservation.changed'`,
        [reservationId],
      ),
      mails: (await stayChangedMails(reservationId)) - mailsBefore,
    });
    const once = {
      end: checkOut('2027-10-07').toISOString(),
      extensions: [{ status: 'applied', paid: true, holds: 0 }],
      payments: 1,
      changes: 1,
      mails: 1,
    };
    expect(await applied()).toMatchObject(once);
    const session = standin.sessions().find((x) => x.id === sessionIdOf(answer.paymentUrl))!;
    for (let i = 0; i < 2; i++) {
      expect((await deliverAndProcessStripe(admin, replayOf(session, 'acct_ext1'), SECRET)).status).toBe('processed');
    }
    expect(await applied()).toMatchObject(once);
  });

  it('refuses a paid extension session reported by another account', async () => {
    const { reservationId, answer } = await heldExtension('acct_ext2', '2027-10-11', '2027-10-12', '2027-10-13');
    const session = standin.sessions().find((x) => x.id === sessionIdOf(answer.paymentUrl))!;
    const forged = replayOf(
      { ...session, payment_status: 'paid', amount_total: session.amount_total },
      'acct_attacker',
    );
    expect(await deliverAndProcessStripe(admin, forged, SECRET)).toMatchObject({
      status: 'failed',
      reason: 'tenant_mismatch',
    });
    expect(await extensionsOf(reservationId)).toMatchObject([{ status: 'held' }]);
  });

  it('releases the hold when the session expires or the hold ends: the stay keeps its end, the nights are free', async () => {
    const a = await heldExtension('acct_ext3', '2027-10-18', '2027-10-19', '2027-10-20');
    const expired = await fetch(`${standin.url}/v1/checkout/sessions/${sessionIdOf(a.answer.paymentUrl)}/expire`, {
      method: 'POST',
      headers: { authorization: `Bearer ${standin.apiKey}`, 'stripe-account': 'acct_ext3' },
    });
    expect(expired.status).toBe(200);
    await processStripe(a.site.tenantId, 1);
    expect(await extensionsOf(a.reservationId)).toMatchObject([{ status: 'released', holds: 0 }]);
    expect(await endOf(a.reservationId)).toBe(checkOut('2027-10-19').toISOString());
    await stay(a.site.tenantId, a.site.roomIds[0]!, checkIn('2027-10-19'), checkOut('2027-10-20'));

    const b = await heldExtension('acct_ext4', '2027-10-25', '2027-10-26', '2027-10-27');
    const { rows } = await admin.query(`select id from stay_extensions where reservation_id = $1`, [b.reservationId]);
    const extensionId = rows[0].id as string;
    expect(await releaseStayExtension({ tenantId: b.site.tenantId, extensionId })).toBe(0); // not yet
    await admin.query(`update stay_extensions set hold_expires_at = now() - interval '1 second' where id = $1`, [
      extensionId,
    ]);
    expect(await releaseStayExtension({ tenantId: b.site.tenantId, extensionId })).toBe(1);
    expect(await extensionsOf(b.reservationId)).toMatchObject([{ status: 'released', holds: 0 }]);
    expect(standin.sessions().find((x) => x.id === sessionIdOf(b.answer.paymentUrl))?.status).toBe('expired');
    expect(await endOf(b.reservationId)).toBe(checkOut('2027-10-26').toISOString());
  });

  it('refunds a payment that arrives after the hold was released, once, with an incident; the stay keeps its end', async () => {
    const { site, reservationId, answer } = await heldExtension('acct_ext5', '2027-11-01', '2027-11-02', '2027-11-03');
    const { rows } = await admin.query(`select id from stay_extensions where reservation_id = $1`, [reservationId]);
    await admin.query(`select app_release_stay_extension($1, $2, 'payment_timeout', true)`, [
      site.tenantId,
      rows[0].id,
    ]);
    expect((await fetch(answer.paymentUrl, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    await processStripe(site.tenantId, 1);
    expect(await extensionsOf(reservationId)).toMatchObject([{ status: 'refunded', refunded: true, paid: false }]);
    expect(await endOf(reservationId)).toBe(checkOut('2027-11-02').toISOString());
    expect(await countOf(`select count(*)::int as n from payments where reservation_id = $1`, [reservationId])).toBe(0);
    const incidents = await countOf(
      `select count(*)::int as n from incidents where tenant_id = $1 and kind = 'late_payment' and resolved_at is null`,
      [site.tenantId],
    );
    expect(incidents).toBe(1);
    const session = standin.sessions().find((x) => x.id === sessionIdOf(answer.paymentUrl))!;
    await deliverAndProcessStripe(admin, replayOf(session, 'acct_ext5'), SECRET);
    const refunds = stripeCalls.filter((c) => c.path === '/v1/refunds' && c.stripeAccount === 'acct_ext5');
    expect(new Set(refunds.map((c) => c.idempotencyKey)).size).toBe(1);
  });
});
