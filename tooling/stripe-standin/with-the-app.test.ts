import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHandler } from '../../lib/api/router';
import { resetStripeClientForTests, stripeClient } from '../../lib/payments/stripe-client';
import { adminClient, createBookableTenant } from '../testing/fixtures';
import { startStripeStandin, type StripeStandin } from './stripe-standin';

// The stand-in as `npm start` wires it: the product's own Stripe client reaches it through
// STRIPE_API_URL, and its deliveries go to the app's Stripe webhook route with the launcher's secret.

const stripeRoute = routeHandler('POST', '/api/webhooks/stripe');
const SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
const answers: number[] = [];
let app: http.Server;
let standin: StripeStandin;
let admin: pg.Client;

beforeAll(async () => {
  admin = await adminClient();
  // The app's route behind a plain HTTP server, the raw bytes passed through untouched.
  app = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      void stripeRoute(
        new Request('http://app/api/webhooks/stripe', { method: 'POST', headers, body: Buffer.concat(chunks) }),
        { params: Promise.resolve({}) },
      ).then(async (response) => {
        answers.push(response.status);
        res.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text());
      });
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(app.address() as { port: number }).port}/api/webhooks/stripe`;
  standin = await startStripeStandin({ webhookUrl, webhookSecret: SECRET, retryDelaysMs: [] });
  process.env.STRIPE_WEBHOOK_SECRET = SECRET;
  process.env.STRIPE_SECRET_KEY = standin.apiKey;
});
afterAll(async () => {
  for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_API_URL', 'STRIPE_API_BASE']) {
    delete process.env[name];
  }
  resetStripeClientForTests();
  await standin.close();
  app.closeAllConnections();
  await new Promise((resolve) => app.close(resolve));
  await admin.end();
});

const newSession = (account: string, bookingGroupId: string) =>
  stripeClient()!.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [
        { price_data: { currency: 'jpy', unit_amount: 24000, product_data: { name: 'Twin' } }, quantity: 1 },
      ],
      success_url: 'http://localhost:3000/b/demo/paid',
      client_reference_id: bookingGroupId,
      metadata: { bookingGroupId },
      expires_at: Math.floor(Date.now() / 1000) + 15 * 60,
    },
    { stripeAccount: account },
  );

describe('the stand-in with the product', () => {
  it('is reached by the product’s Stripe client through STRIPE_API_URL, and through STRIPE_API_BASE (the older name)', async () => {
    for (const name of ['STRIPE_API_URL', 'STRIPE_API_BASE']) {
      process.env[name] = standin.url;
      resetStripeClientForTests();
      const session = await newSession('acct_clientCheck', `group-${name}`);
      delete process.env[name];
      expect(standin.sessions().find((s) => s.id === session.id)).toMatchObject({
        account: 'acct_clientCheck',
        client_reference_id: `group-${name}`,
      });
    }
  });

  it('delivers checkout.session.completed that the app’s webhook route verifies and stores under the tenant', async () => {
    process.env.STRIPE_API_URL = standin.url;
    resetStripeClientForTests();
    const account = `acct_standin${Date.now()}`;
    const { tenantId } = await createBookableTenant({ rooms: 1 });
    await admin.query(`update tenants set stripe_account_id = $2 where id = $1`, [tenantId, account]);

    const session = await newSession(account, 'group-app');
    const paid = await fetch(session.url!, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(answers.at(-1)).toBe(200);

    const { rows } = await admin.query(
      `select tenant_id, type, payload from webhook_events where provider = 'stripe' and payload->'data'->'object'->>'id' = $1`,
      [session.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tenant_id: tenantId, type: 'checkout.session.completed' });
    expect(rows[0].payload).toMatchObject({ account, data: { object: { payment_status: 'paid' } } });
  });
});
