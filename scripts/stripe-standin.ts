// The local Stripe stand-in (`npm start` without STRIPE_SECRET_KEY): Checkout Sessions, refunds and
// PaymentIntents as the stripe SDK speaks them, a payment page that takes no real money, and signed
// webhooks to the app. Its port, the app's webhook URL and the signing secret come from the launcher
// (STRIPE_STANDIN_PORT, _WEBHOOK_URL, _WEBHOOK_SECRET), new on every start.
//
// Run on its own (`npm run stripe-standin`), it listens on STRIPE_STANDIN_PORT (4242), delivers to
// STRIPE_STANDIN_WEBHOOK_URL (the app on PORT, else 3000) and, without STRIPE_STANDIN_WEBHOOK_SECRET,
// makes a signing secret and prints it for the app's STRIPE_WEBHOOK_SECRET.
import { randomBytes } from 'node:crypto';
import { startStripeStandin } from '../tooling/stripe-standin/stripe-standin';

const givenSecret = process.env.STRIPE_STANDIN_WEBHOOK_SECRET;
const webhookSecret = givenSecret ?? `whsec_${randomBytes(24).toString('base64url')}`;
const webhookUrl =
  process.env.STRIPE_STANDIN_WEBHOOK_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/api/webhooks/stripe`;

const standin = await startStripeStandin({
  webhookUrl,
  webhookSecret,
  port: Number(process.env.STRIPE_STANDIN_PORT ?? 4242),
});
process.stdout.write(`Stripe stand-in (no real money) listening on ${standin.url}, webhooks to ${webhookUrl}\n`);
if (!givenSecret) {
  process.stdout.write(
    `Run the app with STRIPE_SECRET_KEY=sk_test_local_standin STRIPE_API_URL=${standin.url} STRIPE_WEBHOOK_SECRET=${webhookSecret}\n`,
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void standin.close().then(() => process.exit(0));
  });
