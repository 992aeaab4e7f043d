import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processWebhookEvent } from '../webhooks/process-event';
import { adminClient } from '../../tooling/testing/fixtures';
import { callPublic, createBookingSite, trustTestClientAddresses } from '../../tooling/testing/booking-site';
import { deliverAndProcessStripe } from '../../tooling/testing/stripe-events';
import type { StandinRequest, StripeStandin } from '../../tooling/stripe-standin/stripe-standin';
import { startStandinWithApp, type TStandinApp } from '../../tooling/testing/stripe-standin-app';
import { bookingCode } from './booking-code';
import { releaseBookingHold } from './checkout';

// Online payment through Stripe Checkout against the local stand-in (the `stripe` SDK at STRIPE_API_URL), its
// webhooks delivered to the app's own route: a hold, paid once, released at its end, and a payment after release.

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

/** Processes the stored Stripe events of a tenant as the worker would (after waiting for their delivery). */
async function processStripe(tenantId: string, expected: number) {
  for (let i = 0; i < 100; i++) {
    const { rows } = await admin.query(
      `select count(*)::int as n from webhook_events where provider = 'stripe' and tenant_id = $1`,
      [tenantId],
    );
    if (rows[0].n >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { rows } = await admin.query(
    `select id from webhook_events where provider = 'stripe' and tenant_id = $1 and status = 'received' order by received_at`,
    [tenantId],
  );
  for (const row of rows) await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
}

async function heldBooking(account: string, dates: { checkIn: string; checkOut: string }) {
  const site = await createBookingSite(admin, { rooms: 1, payment: 'online', stripeAccount: account });
  const asked = await callPublic(
    'POST',
    '/api/public/facilities/{slug}/booking-requests',
    { slug: site.slug },
    {
      body: {
        roomTypeId: site.roomTypeId,
        ...dates,
        guest: { name: 'Ren', email: `ren-${Date.now()}@example.com` },
        acceptTerms: true,
      },
    },
  );
  expect(asked.status).toBe(202);
  const id = asked.body.data.id as string;
  const confirmed = await callPublic(
    'POST',
    '/api/public/booking-requests/{id}/confirm',
    { id },
    { body: { code: bookingCode(id) } },
  );
  expect(confirmed.status).toBe(201);
  const { rows } = await admin.query(`select booking_group_id from reservations where tenant_id = $1`, [site.tenantId]);
  return { site, id, answer: confirmed.body.data, groupId: rows[0].booking_group_id as string };
}

// The payment page's URL is /pay/{session id}/{the page's own secret}.
const sessionIdOf = (url: string) => url.split('/pay/')[1]!.split('/')[0]!;

async function pay(url: string): Promise<Response> {
  return fetch(url, { method: 'POST', redirect: 'manual' });
}

async function state(tenantId: string) {
  const { rows } = await admin.query(
    `select r.status, r.cancel_reason, r.paid_at is not null as paid, r.refunded_at is not null as refunded,
            (select count(*)::int from payments p where p.tenant_id = r.tenant_id and p.reservation_id = r.id) as payments,
            (select count(*)::int from messages m where m.tenant_id = r.tenant_id and m.reservation_id = r.id and m.kind = 'key_link') as key_links,
            (select count(*)::int from access_keys k where k.tenant_id = r.tenant_id and k.reservation_id = r.id and k.status = 'pre_issued') as keys,
            (select count(*)::int from room_holds h where h.tenant_id = r.tenant_id and h.reservation_id = r.id and h.key_id is null) as holds
       from reservations r where r.tenant_id = $1`,
    [tenantId],
  );
  return rows[0];
}

describe('online payment through Stripe Checkout', () => {
  it('holds the room with a Checkout Session that expires with the hold, on the tenant’s account, once', async () => {
    const before = Date.now();
    const { site, id, answer, groupId } = await heldBooking('acct_hold1', {
      checkIn: '2027-06-01',
      checkOut: '2027-06-03',
    });
    expect(answer.status).toBe('held');
    const holdEnd = new Date(answer.holdExpiresAt).getTime();
    expect(holdEnd - before).toBeGreaterThan(14 * 60_000);
    expect(holdEnd - before).toBeLessThan(16 * 60_000);
    expect(answer.paymentUrl).toContain(`${standin.url}/pay/cs_`);
    const again = await callPublic(
      'POST',
      '/api/public/booking-requests/{id}/confirm',
      { id },
      { body: { code: bookingCode(id) } },
    );
    expect(again.body.data).toEqual(answer);
    const created = stripeCalls.filter(
      (c) => c.path === '/v1/checkout/sessions' && c.form.client_reference_id === groupId,
    );
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ stripeAccount: 'acct_hold1', idempotencyKey: `checkout:${groupId}` });
    expect(created[0]!.form).toMatchObject({
      mode: 'payment',
      'metadata[bookingGroupId]': groupId,
      expires_at: String(Math.floor(holdEnd / 1000)),
      'line_items[0][price_data][unit_amount]': '24000',
      'line_items[0][price_data][currency]': 'jpy',
    });
    // Held: the room is taken, no key and no key link yet.
    expect(await state(site.tenantId)).toMatchObject({ status: 'held', paid: false, key_links: 0, keys: 0, holds: 1 });
  });

  it('confirms and marks paid exactly once when the session is paid, and mails the key link once', async () => {
    const { site, id, answer } = await heldBooking('acct_paid1', { checkIn: '2027-06-05', checkOut: '2027-06-06' });
    const paid = await pay(answer.paymentUrl);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toContain(`/b/${site.slug}/done?request=${id}`);
    await processStripe(site.tenantId, 1);
    expect(await state(site.tenantId)).toMatchObject({
      status: 'confirmed',
      paid: true,
      payments: 1,
      key_links: 1,
      keys: 1,
    });
    // The same session reported again under another event id (a replay, a retried delivery): nothing twice.
    const session = standin.sessions().find((s) => s.id === sessionIdOf(answer.paymentUrl))!;
    const replay = {
      id: `evt_replay_${Date.now()}`,
      object: 'event',
      type: 'checkout.session.completed',
      account: 'acct_paid1',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...session, account: undefined } },
    };
    expect((await deliverAndProcessStripe(admin, replay, SECRET)).status).toBe('processed');
    expect(await state(site.tenantId)).toMatchObject({
      status: 'confirmed',
      paid: true,
      payments: 1,
      key_links: 1,
      keys: 1,
    });
    const status = await callPublic('GET', '/api/public/booking-requests/{id}', { id });
    expect(status.body.data).toMatchObject({ status: 'confirmed', paid: true, paymentUrl: null });
  });

  it('refuses a paid session reported by another Stripe account: nothing changes', async () => {
    const { site, answer } = await heldBooking('acct_own1', { checkIn: '2027-06-08', checkOut: '2027-06-09' });
    const forged = {
      id: `evt_forged_${Date.now()}`,
      object: 'event',
      type: 'checkout.session.completed',
      account: 'acct_attacker',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: { id: sessionIdOf(answer.paymentUrl), payment_status: 'paid', amount_total: 12000, currency: 'jpy' },
      },
    };
    const row = await deliverAndProcessStripe(admin, forged, SECRET);
    expect(row).toMatchObject({ status: 'failed', reason: 'tenant_mismatch' });
    expect(await state(site.tenantId)).toMatchObject({ status: 'held', paid: false, key_links: 0 });
  });

  it('releases the room at the hold’s end without a payment, and expires the session on Stripe', async () => {
    const { site, answer, groupId } = await heldBooking('acct_late0', {
      checkIn: '2027-06-10',
      checkOut: '2027-06-11',
    });
    // Not yet: the job that runs early changes nothing.
    expect(await releaseBookingHold({ tenantId: site.tenantId, bookingGroupId: groupId })).toBe(0);
    await admin.query(`update booking_groups set hold_expires_at = now() - interval '1 second' where id = $1`, [
      groupId,
    ]);
    expect(await releaseBookingHold({ tenantId: site.tenantId, bookingGroupId: groupId })).toBe(1);
    expect(await state(site.tenantId)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'payment_timeout',
      holds: 0,
    });
    expect(standin.sessions().find((s) => s.id === sessionIdOf(answer.paymentUrl))?.status).toBe('expired');
    // The room is free again: another guest gets it.
    const next = await callPublic(
      'POST',
      '/api/public/facilities/{slug}/quotes',
      { slug: site.slug },
      {
        body: { roomTypeId: site.roomTypeId, checkIn: '2027-06-10', checkOut: '2027-06-11' },
      },
    );
    expect(next.body.data.available).toBe(true);
  });

  it('releases the hold when Stripe says the session expired', async () => {
    const { site, answer } = await heldBooking('acct_exp1', { checkIn: '2027-06-12', checkOut: '2027-06-13' });
    const expired = await fetch(`${standin.url}/v1/checkout/sessions/${sessionIdOf(answer.paymentUrl)}/expire`, {
      method: 'POST',
      headers: { authorization: `Bearer ${standin.apiKey}`, 'stripe-account': 'acct_exp1' },
    });
    expect(expired.status).toBe(200);
    await processStripe(site.tenantId, 1);
    expect(await state(site.tenantId)).toMatchObject({ status: 'cancelled', cancel_reason: 'payment_timeout' });
  });

  it('refunds a payment that arrives after its hold was released, once, and opens an incident', async () => {
    const { site, answer, groupId } = await heldBooking('acct_late1', {
      checkIn: '2027-06-15',
      checkOut: '2027-06-16',
    });
    // Released without Stripe hearing of it (the session still open): the guest then pays.
    await admin.query(`select app_release_booking_hold($1, $2, 'payment_timeout', true)`, [site.tenantId, groupId]);
    expect((await pay(answer.paymentUrl)).status).toBe(303);
    await processStripe(site.tenantId, 1);
    expect(await state(site.tenantId)).toMatchObject({
      status: 'cancelled',
      paid: false,
      refunded: true,
      key_links: 0,
    });
    const refunds = stripeCalls.filter((c) => c.path === '/v1/refunds' && c.stripeAccount === 'acct_late1');
    expect(refunds).toHaveLength(1);
    const { rows: incidents } = await admin.query(
      `select kind from incidents where tenant_id = $1 and resolved_at is null and kind = 'late_payment'`,
      [site.tenantId],
    );
    expect(incidents).toEqual([{ kind: 'late_payment' }]);
    // The same completion again (Stripe retries): one refund, nothing else.
    const session = standin.sessions().find((s) => s.id === sessionIdOf(answer.paymentUrl))!;
    const again = {
      id: `evt_late_again_${Date.now()}`,
      object: 'event',
      type: 'checkout.session.completed',
      account: 'acct_late1',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...session, account: undefined } },
    };
    await deliverAndProcessStripe(admin, again, SECRET);
    const after = stripeCalls.filter((c) => c.path === '/v1/refunds' && c.stripeAccount === 'acct_late1');
    expect(new Set(after.map((c) => c.idempotencyKey)).size).toBe(1);
  });
});
