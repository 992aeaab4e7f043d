// The local Stripe stand-in (`npm start` without STRIPE_SECRET_KEY): Checkout Sessions, refunds and
// PaymentIntents as the stripe SDK speaks them, a payment page that takes no real money, and signed
// webhooks to the app. Its port, the app's webhook URL, the signing secret and the only API key it takes
// come from the launcher (STRIPE_STANDIN_PORT, _WEBHOOK_URL, _WEBHOOK_SECRET, _API_KEY), new on every start.
//
// Run on its own (`npm run stripe-standin`), it listens on STRIPE_STANDIN_PORT (4242), delivers to
// STRIPE_STANDIN_WEBHOOK_URL (the app on PORT, else 3000) and, without STRIPE_STANDIN_WEBHOOK_SECRET or
// STRIPE_STANDIN_API_KEY, makes them and prints them for the app's STRIPE_WEBHOOK_SECRET and STRIPE_SECRET_KEY.
import { randomBytes } from 'node:crypto';
import { startStripeStandin } from '../tooling/stripe-standin/stripe-standin';

const givenSecret = process.env.STRIPE_STANDIN_WEBHOOK_SECRET;
const givenKey = process.env.STRIPE_STANDIN_API_KEY;
const webhookSecret = givenSecret ?? `whsec_${randomBytes(24).toString('base64url')}`;
const webhookUrl =
  process.env.STRIPE_STANDIN_WEBHOOK_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/api/webhooks/stripe`;

const standin = await startStripeStandin({
  webhookUrl,
  webhookSecret,
  apiKey: givenKey, // made by the stand-in when not given
  port: Number(process.env.STRIPE_STANDIN_PORT ?? 4242),
});
process.stdout.write(`Stripe stand-in (no real money) listening on ${standin.url}, webhooks to ${webhookUrl}\n`);
// The launcher gave both and hands them to the app itself: they stay out of its log.
if (!givenSecret || !givenKey) {
  process.stdout.write(
    `Run the app with STRIPE_SECRET_KEY=${standin.apiKey} STRIPE_API_URL=${standin.url} STRIPE_STANDIN_URL=${standin.url} STRIPE_WEBHOOK_SECRET=${webhookSecret}\n` +
      'The stand-in takes no other key; a new one is made on each start.\n',
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void standin.close().then(() => process.exit(0));
  });
