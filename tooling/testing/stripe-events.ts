import Stripe from 'stripe';
import type pg from 'pg';
import { processWebhookEvent } from '../../lib/webhooks/process-event';
import { routeHandler } from '../../lib/api/router';

const stripeRoute = routeHandler('POST', '/api/webhooks/stripe');

// Stripe deliveries as Stripe sends them (signed over the raw body), for the webhook tests. The
// route reads STRIPE_WEBHOOK_SECRET: a test file sets it to `secret` for its run.

const signer = new Stripe('sk_test_unused').webhooks;

/** Posts one event to the Stripe webhook route, signed with `secret` (or with the header / body given). */
export function deliverStripe(
  event: unknown,
  options: { secret: string; header?: string | null; body?: string },
): Promise<Response> {
  const payload = options.body ?? JSON.stringify(event);
  const header =
    options.header === undefined
      ? signer.generateTestHeaderString({ payload, secret: options.secret })
      : options.header;
  return stripeRoute(
    new Request('http://test/api/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(header ? { 'stripe-signature': header } : {}) },
      body: payload,
    }),
    { params: Promise.resolve({}) },
  );
}

/** The stored row of a Stripe event, by its event id. */
export async function stripeEventRow(
  admin: pg.Client,
  stripeEventId: string,
): Promise<{ id: string; status: string; reason: string | null; tenant_id: string | null } | undefined> {
  const { rows } = await admin.query(
    `select id, status, reason, tenant_id from webhook_events where provider = 'stripe' and dedupe_key = $1`,
    [stripeEventId],
  );
  return rows[0];
}

/** Delivers an event (it must be acknowledged) and processes it as the worker would; returns the stored row after. */
export async function deliverAndProcessStripe(admin: pg.Client, event: { id: string }, secret: string) {
  const response = await deliverStripe(event, { secret });
  if (response.status !== 200) throw new Error(`the Stripe route answered ${response.status}`);
  const row = (await stripeEventRow(admin, event.id))!;
  await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
  return (await stripeEventRow(admin, event.id))!;
}
