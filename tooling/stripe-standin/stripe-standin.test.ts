import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { standinStripe } from '../testing/stripe-standin-app';
import { startStripeStandin, type StripeStandin } from './stripe-standin';

const SECRET = 'whsec_standin_test';
// The key the stand-in is started with: the one the app would be handed (the launcher makes one per start).
const KEY = `sk_test_${randomBytes(24).toString('hex')}`;
const verifier = new Stripe('sk_test_verifier').webhooks;

// The webhook receiver: every delivery is verified with the SDK's own check over the raw bytes, as
// the app's route does; `failNext` answers 500 that many times first (to see the stand-in retry).
const received: Stripe.Event[] = [];
const rejected: string[] = [];
let failNext = 0;
let receiver: http.Server;
let receiverUrl: string;
let standin: StripeStandin;
let stripe: Stripe;
let seq = 0;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      try {
        const event = verifier.constructEvent(raw, String(req.headers['stripe-signature']), SECRET);
        if (failNext > 0) {
          failNext -= 1;
          res.writeHead(500).end();
          return;
        }
        received.push(event);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      } catch (error) {
        rejected.push((error as Error).message);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/api/webhooks/stripe`;
  standin = await startStripeStandin({
    webhookUrl: receiverUrl,
    webhookSecret: SECRET,
    apiKey: KEY,
    retryDelaysMs: [50, 100, 200],
  });
  stripe = standinStripe({ url: standin.url, apiKey: KEY });
});
afterAll(async () => {
  await standin.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  failNext = 0;
});

const eventsOf = (type: string, objectId: string) =>
  received.filter((e) => e.type === type && (e.data.object as { id: string }).id === objectId);

async function waitFor<T>(read: () => T | undefined, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

function sessionParams(overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  seq += 1;
  return {
    mode: 'payment' as const,
    line_items: [
      { price_data: { currency: 'jpy', unit_amount: 1500, product_data: { name: 'Room 101, 1 night' } }, quantity: 1 },
    ],
    success_url: 'https://hotel.example/b/sakura/paid?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'https://hotel.example/b/sakura/cancelled',
    client_reference_id: `group-${seq}`,
    metadata: { bookingGroupId: `group-${seq}` },
    expires_at: Math.floor(Date.now() / 1000) + 30 * 60,
    customer_email: 'guest@example.com',
    locale: 'ja' as const,
    ...overrides,
  };
}

// Paying as the guest does: a POST to the payment page's URL the session was created with.
const pay = (url: string) => fetch(url, { method: 'POST', redirect: 'manual' });
// A client with a key of its own, as anyone who reaches the stand-in's port could make.
const stranger = (key: string) => standinStripe({ url: standin.url, apiKey: key });

describe('the Stripe stand-in, through the stripe SDK', () => {
  it('creates a session on a connected account, once per Idempotency-Key, found only on that account', async () => {
    const params = sessionParams();
    const session = await stripe.checkout.sessions.create(params, { stripeAccount: 'acct_1', idempotencyKey: 'k1' });
    expect(session).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 1500,
      currency: 'jpy',
      expires_at: params.expires_at,
      client_reference_id: params.client_reference_id,
      metadata: { bookingGroupId: params.metadata.bookingGroupId },
      payment_intent: null,
      mode: 'payment',
      livemode: false,
    });
    expect(session.id).toMatch(/^cs_test_/);
    // The payment page's URL carries a secret of its own beside the session id, which is no secret.
    expect(session.url).toMatch(new RegExp(`^${standin.url}/pay/${session.id}/[A-Za-z0-9_-]{32,}$`));

    const again = await stripe.checkout.sessions.create(params, { stripeAccount: 'acct_1', idempotencyKey: 'k1' });
    expect(again.id).toBe(session.id);
    expect(standin.sessions().filter((s) => s.client_reference_id === params.client_reference_id)).toHaveLength(1);

    expect((await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: 'acct_1' })).id).toBe(session.id);
    const elsewhere = await stripe.checkout.sessions
      .retrieve(session.id, {}, { stripeAccount: 'acct_2' })
      .catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(elsewhere).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    await expect(stripe.checkout.sessions.retrieve(session.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('refuses an expires_at in the past or more than 24 hours ahead, and another session under a reused key', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const expires_at of [now - 10, now + 25 * 60 * 60]) {
      await expect(
        stripe.checkout.sessions.create(sessionParams({ expires_at }), { stripeAccount: 'acct_1' }),
      ).rejects.toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param: 'expires_at' });
    }
    await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1', idempotencyKey: 'k-reused' });
    await expect(
      stripe.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1', idempotencyKey: 'k-reused' }),
    ).rejects.toMatchObject({ statusCode: 400, type: 'StripeIdempotencyError' });
  });

  it('pays on the payment page: complete and paid, a verified checkout.session.completed, back to success_url', async () => {
    const params = sessionParams();
    const session = await stripe.checkout.sessions.create(params, { stripeAccount: 'acct_1' });

    const page = await fetch(session.url!);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Local payment stand-in — no real money is taken');
    expect(html).toContain('¥1,500');
    expect(html).toContain(`<form method="post" action="${new URL(session.url!).pathname}">`);
    expect(html).toContain('href="https://hotel.example/b/sakura/cancelled"');

    const response = await pay(session.url!);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`https://hotel.example/b/sakura/paid?session=${session.id}`);
    // Delivered before the guest is sent back.
    const [completed] = eventsOf('checkout.session.completed', session.id);
    expect(completed).toMatchObject({
      object: 'event',
      account: 'acct_1',
      livemode: false,
      data: {
        object: {
          id: session.id,
          status: 'complete',
          payment_status: 'paid',
          client_reference_id: params.client_reference_id,
          metadata: { bookingGroupId: params.metadata.bookingGroupId },
        },
      },
    });
    expect(completed!.id).toMatch(/^evt_/);
    expect(completed!.api_version).toBeTruthy();

    const after = await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: 'acct_1' });
    expect(after).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect(after.payment_intent).toMatch(/^pi_/);
    expect(
      (await stripe.paymentIntents.retrieve(after.payment_intent as string, {}, { stripeAccount: 'acct_1' })).status,
    ).toBe('succeeded');

    // Paying again sends the guest back, but no second event.
    expect((await pay(session.url!)).status).toBe(303);
    await new Promise((r) => setTimeout(r, 200));
    expect(eventsOf('checkout.session.completed', session.id)).toHaveLength(1);
    const paidPage = await (await fetch(session.url!)).text();
    expect(paidPage).toContain('already complete');
    expect(paidPage).not.toContain('<button');
    // Expiring a completed session is refused.
    await expect(stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: 'acct_1' })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('sends a session on the platform without an account', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    await pay(session.url!);
    const [completed] = eventsOf('checkout.session.completed', session.id);
    expect(completed).toBeDefined();
    expect('account' in completed!).toBe(false);
  });

  it('expires an open session on request, with checkout.session.expired, and its page says so', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1' });
    await expect(stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: 'acct_2' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    const expired = await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: 'acct_1' });
    expect(expired.status).toBe('expired');
    const event = await waitFor(() => eventsOf('checkout.session.expired', session.id)[0]);
    expect(event).toMatchObject({ account: 'acct_1', data: { object: { status: 'expired' } } });

    const html = await (await fetch(session.url!)).text();
    expect(html).toContain('expired');
    expect(html).not.toContain('<button');
    expect((await pay(session.url!)).status).toBe(409);
    expect(eventsOf('checkout.session.completed', session.id)).toHaveLength(0);
  });

  it('expires a session by itself once its expires_at has passed', async () => {
    const session = await stripe.checkout.sessions.create(
      sessionParams({ expires_at: Math.floor(Date.now() / 1000) + 2 }),
      { stripeAccount: 'acct_1' },
    );
    expect(standin.sessions().find((s) => s.id === session.id)?.status).toBe('open');
    const event = await waitFor(() => eventsOf('checkout.session.expired', session.id)[0], 5_000);
    expect(event.account).toBe('acct_1');
    expect(standin.sessions().find((s) => s.id === session.id)?.status).toBe('expired');
  });

  it('refunds a paid session’s intent once per Idempotency-Key, with charge.refunded', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1' });
    await pay(session.url!);
    const intent = (await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: 'acct_1' }))
      .payment_intent as string;

    await expect(stripe.refunds.create({ payment_intent: intent }, { stripeAccount: 'acct_2' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    const options = { stripeAccount: 'acct_1', idempotencyKey: `refund-${intent}` };
    const refund = await stripe.refunds.create({ payment_intent: intent, metadata: { reason: 'released' } }, options);
    expect(refund).toMatchObject({
      object: 'refund',
      status: 'succeeded',
      amount: 1500,
      currency: 'jpy',
      payment_intent: intent,
    });
    expect(refund.id).toMatch(/^re_/);
    expect(
      (await stripe.refunds.create({ payment_intent: intent, metadata: { reason: 'released' } }, options)).id,
    ).toBe(refund.id);

    const event = await waitFor(() =>
      received.find((e) => e.type === 'charge.refunded' && (e.data.object as Stripe.Charge).payment_intent === intent),
    );
    expect(event.account).toBe('acct_1');
    expect(event.data.object).toMatchObject({ object: 'charge', refunded: true, amount_refunded: 1500 });
    await new Promise((r) => setTimeout(r, 100));
    expect(
      received.filter(
        (e) => e.type === 'charge.refunded' && (e.data.object as Stripe.Charge).payment_intent === intent,
      ),
    ).toHaveLength(1);
    // Nothing left to refund.
    await expect(stripe.refunds.create({ payment_intent: intent }, { stripeAccount: 'acct_1' })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('retries a delivery the receiver did not accept', async () => {
    failNext = 2;
    const session = await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1' });
    await pay(session.url!);
    const event = await waitFor(() => eventsOf('checkout.session.completed', session.id)[0]);
    expect(event.data.object).toMatchObject({ payment_status: 'paid' });
    expect(failNext).toBe(0);
    expect(eventsOf('checkout.session.completed', session.id)).toHaveLength(1);
  });

  it('signs deliveries so that a receiver with another secret refuses them', async () => {
    const otherKey = `sk_test_${randomBytes(24).toString('hex')}`;
    const other = await startStripeStandin({
      webhookUrl: receiverUrl,
      webhookSecret: 'whsec_someone_else',
      apiKey: otherKey,
      retryDelaysMs: [],
    });
    try {
      const client = standinStripe({ url: other.url, apiKey: otherKey });
      const session = await client.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1' });
      const before = rejected.length;
      await fetch(session.url!, { method: 'POST', redirect: 'manual' });
      expect(rejected.length).toBe(before + 1);
      expect(rejected.at(-1)).toMatch(/signature/i);
      expect(eventsOf('checkout.session.completed', session.id)).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('keeps PaymentIntents on their account, and its front page lists no session, account or guest', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 2400, currency: 'jpy' }, { stripeAccount: 'acct_1' });
    expect(intent).toMatchObject({ object: 'payment_intent', amount: 2400, status: 'requires_payment_method' });
    await expect(stripe.paymentIntents.retrieve(intent.id)).rejects.toMatchObject({ statusCode: 404 });
    const session = await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1' });

    const front = await fetch(`${standin.url}/`);
    const html = await front.text();
    expect(front.status).toBe(200);
    expect(html).toContain('no real money is taken');
    for (const hidden of [session.id, 'cs_test_', '/pay/', 'acct_1', '¥1,500', 'guest@example.com']) {
      expect(html, hidden).not.toContain(hidden);
    }
  });

  it('takes only the key it was started with: any other gets 401 on create, list, retrieve and expire, and sees nothing', async () => {
    const params = sessionParams();
    const session = await stripe.checkout.sessions.create(params, { stripeAccount: 'acct_1' });
    const count = standin.sessions().length;
    const otherKeys = [
      `sk_test_${randomBytes(24).toString('hex')}`,
      `sk_live_${randomBytes(24).toString('hex')}`,
      'sk_test_local_standin',
      `${KEY}0`,
      KEY.slice(0, -1),
    ];
    for (const key of otherKeys) {
      const client = stranger(key);
      const refused = { statusCode: 401, type: 'StripeAuthenticationError' };
      await expect(
        client.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1' }),
        key,
      ).rejects.toMatchObject(refused);
      await expect(client.checkout.sessions.list({}, { stripeAccount: 'acct_1' }), key).rejects.toMatchObject(refused);
      await expect(
        client.checkout.sessions.retrieve(session.id, {}, { stripeAccount: 'acct_1' }),
        key,
      ).rejects.toMatchObject(refused);
      await expect(
        client.checkout.sessions.expire(session.id, {}, { stripeAccount: 'acct_1' }),
        key,
      ).rejects.toMatchObject(refused);
      await expect(client.paymentIntents.create({ amount: 100, currency: 'jpy' }), key).rejects.toMatchObject(refused);
      await expect(client.accounts.create({ type: 'standard' }), key).rejects.toMatchObject(refused);

      // Stripe's own shape, and nothing of the session in it.
      const raw = await fetch(`${standin.url}/v1/checkout/sessions/${session.id}`, {
        headers: { authorization: `Bearer ${key}`, 'stripe-account': 'acct_1' },
      });
      const text = await raw.text();
      expect(raw.status, key).toBe(401);
      expect(JSON.parse(text), key).toMatchObject({
        error: { type: 'invalid_request_error', message: expect.any(String) },
      });
      for (const hidden of ['guest@example.com', params.client_reference_id, '/pay/']) {
        expect(text, key).not.toContain(hidden);
      }
    }
    expect(standin.sessions()).toHaveLength(count);
    expect(await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: 'acct_1' })).toMatchObject({
      status: 'open',
      customer_email: 'guest@example.com',
    });
    expect(eventsOf('checkout.session.expired', session.id)).toHaveLength(0);
  });

  it('makes a fresh sk_test_ key on each start when given none, and takes only its own', async () => {
    const a = await startStripeStandin({ webhookUrl: null, webhookSecret: 'whsec_a' });
    const b = await startStripeStandin({ webhookUrl: null, webhookSecret: 'whsec_b' });
    try {
      expect(a.apiKey).toMatch(/^sk_test_[A-Za-z0-9]{32,}$/);
      expect(b.apiKey).toMatch(/^sk_test_[A-Za-z0-9]{32,}$/);
      expect(a.apiKey).not.toBe(b.apiKey);
      const created = await standinStripe(a).checkout.sessions.create(sessionParams());
      expect(created.status).toBe('open');
      await expect(
        standinStripe({ url: a.url, apiKey: b.apiKey }).checkout.sessions.retrieve(created.id),
      ).rejects.toMatchObject({ statusCode: 401 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('pays only the session whose payment-page URL it gave: a guessed or another session’s URL pays nothing', async () => {
    const a = await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1' });
    const b = await stripe.checkout.sessions.create(sessionParams(), { stripeAccount: 'acct_1' });
    const secretOf = (url: string) => url.split('/').at(-1)!;
    const guesses = [
      `${standin.url}/pay/${a.id}`,
      `${standin.url}/pay/${a.id}/${secretOf(b.url!)}`,
      `${standin.url}/pay/${b.id}/${secretOf(a.url!)}`,
      `${standin.url}/pay/${a.id}/${'A'.repeat(secretOf(a.url!).length)}`,
      `${standin.url}/pay/${a.id}/${secretOf(a.url!).slice(0, -1)}`,
      `${standin.url}/pay/cs_test_guessed/${secretOf(a.url!)}`,
    ];
    for (const guess of guesses) {
      expect((await pay(guess)).status, guess).toBe(404);
      const shown = await fetch(guess);
      expect(shown.status, guess).toBe(404);
      expect(await shown.text(), guess).not.toContain('¥1,500');
    }
    for (const session of [a, b]) {
      expect(await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: 'acct_1' })).toMatchObject({
        status: 'open',
        payment_status: 'unpaid',
      });
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(eventsOf('checkout.session.completed', a.id)).toHaveLength(0);
    expect(eventsOf('checkout.session.completed', b.id)).toHaveLength(0);

    expect((await pay(a.url!)).status).toBe(303);
    expect((await stripe.checkout.sessions.retrieve(a.id, {}, { stripeAccount: 'acct_1' })).payment_status).toBe(
      'paid',
    );
    expect((await stripe.checkout.sessions.retrieve(b.id, {}, { stripeAccount: 'acct_1' })).payment_status).toBe(
      'unpaid',
    );
  });

  it('answers an unknown route and a missing API key as Stripe does', async () => {
    const unknown = await fetch(`${standin.url}/v1/customers`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.type).toBe('invalid_request_error');
    const anonymous = await fetch(`${standin.url}/v1/checkout/sessions`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
  });

  it('makes Connect accounts, onboards them through a single-use link, and tells the webhook', async () => {
    const account = await stripe.accounts.create({ type: 'standard', metadata: { tenantId: 't1' } });
    expect(account).toMatchObject({ object: 'account', details_submitted: false, charges_enabled: false });
    expect(account.id).toMatch(/^acct_[A-Za-z0-9]+$/);
    await expect(stripe.accounts.retrieve(account.id, {}, { stripeAccount: 'acct_other' })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(
      stripe.accountLinks.create({
        account: 'acct_unknown',
        type: 'account_onboarding',
        refresh_url: 'http://app/refresh',
        return_url: 'http://app/return',
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
    const link = await stripe.accountLinks.create({
      account: account.id,
      type: 'account_onboarding',
      refresh_url: 'http://app/refresh',
      return_url: 'http://app/return',
    });
    const page = await fetch(link.url);
    expect(await page.text()).toContain('Complete onboarding');
    // Only its own link opens it: a guessed one is not found.
    const guessed = `${standin.url}/connect/onboard/${randomBytes(12).toString('hex')}`;
    expect((await fetch(guessed, { method: 'POST', body: 'outcome=complete', redirect: 'manual' })).status).toBe(404);
    const done = await fetch(link.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=complete',
      redirect: 'manual',
    });
    expect([done.status, done.headers.get('location')]).toEqual([303, 'http://app/return']);
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({
      details_submitted: true,
      charges_enabled: true,
    });
    await expect.poll(() => received.find((e) => e.type === 'account.updated')?.account).toBe(account.id);
    const used = await fetch(link.url, { redirect: 'manual' });
    expect(used.headers.get('location')).toBe('http://app/refresh');
  });
});
