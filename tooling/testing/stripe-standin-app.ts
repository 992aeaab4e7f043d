import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';
import { routeHandler } from '../../lib/api/router';
import { resetStripeClientForTests } from '../../lib/payments/stripe-client';
import { startStripeStandin, type StandinRequest, type StripeStandin } from '../stripe-standin/stripe-standin';

// The Stripe stand-in wired to the app as `npm start` wires it, for db tests of online payment: the `stripe` SDK
// reaches it through STRIPE_API_URL, and its webhook deliveries go to the app's own Stripe route (behind a plain
// HTTP server, the raw bytes untouched) signed with the returned secret.

export type TStandinApp = {
  standin: StripeStandin;
  secret: string;
  /** Every API call the SDK made to the stand-in, in order. */
  calls: StandinRequest[];
  close: () => Promise<void>;
};

export async function startStandinWithApp(): Promise<TStandinApp> {
  const stripeRoute = routeHandler('POST', '/api/webhooks/stripe');
  const secret = `whsec_${randomBytes(16).toString('hex')}`;
  const calls: StandinRequest[] = [];
  const app = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      void stripeRoute(
        new Request('http://app/api/webhooks/stripe', { method: 'POST', headers, body: Buffer.concat(chunks) }),
        { params: Promise.resolve({}) },
      ).then(async (response) => res.writeHead(response.status).end(await response.text()));
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(app.address() as { port: number }).port}/api/webhooks/stripe`;
  const standin = await startStripeStandin({
    webhookUrl,
    webhookSecret: secret,
    retryDelaysMs: [],
    onRequest: (r) => calls.push(r),
  });
  process.env.STRIPE_WEBHOOK_SECRET = secret;
  process.env.STRIPE_SECRET_KEY = standin.apiKey;
  process.env.STRIPE_API_URL = standin.url;
  resetStripeClientForTests();
  return {
    standin,
    secret,
    calls,
    close: async () => {
      for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_API_URL']) delete process.env[name];
      resetStripeClientForTests();
      await standin.close();
      app.closeAllConnections();
      await new Promise((resolve) => app.close(resolve));
    },
  };
}

/** A Stripe SDK client of its own for a stand-in, with the key it takes (no retries: a test sees the first answer). */
export function standinStripe(standin: { url: string; apiKey: string }): Stripe {
  const url = new URL(standin.url);
  return new Stripe(standin.apiKey, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
}
