import Stripe from 'stripe';

let client: Stripe | null | undefined;

/**
 * The Stripe client, or null when `STRIPE_SECRET_KEY` is not set (payments not configured).
 * `STRIPE_API_URL` points it at another Stripe API base — the launcher's local stand-in, or a test's
 * (`STRIPE_API_BASE`, its older name, still works).
 */
export function stripeClient(): Stripe | null {
  if (client !== undefined) return client;
  const key = process.env.STRIPE_SECRET_KEY;
  if (!key) return (client = null);
  const baseUrl = process.env.STRIPE_API_URL || process.env.STRIPE_API_BASE;
  const base = baseUrl ? new URL(baseUrl) : null;
  client = new Stripe(key, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
  return client;
}

let verifier: Stripe['webhooks'] | undefined;

/** The SDK's webhook verifier, which needs no API key (built once: a Stripe instance is costly). */
export function stripeWebhooks(): Stripe['webhooks'] {
  verifier ??= new Stripe('sk_unconfigured').webhooks;
  return verifier;
}

export function paymentsConfigured(): boolean {
  return Boolean(process.env.STRIPE_SECRET_KEY);
}

/** For tests: forget the cached client after changing the environment. */
export function resetStripeClientForTests(): void {
  client = undefined;
}

/** The local Stripe stand-in's address when `npm start` runs one (no STRIPE_SECRET_KEY given), else null. */
export function paymentStandinUrl(): string | null {
  return process.env.STRIPE_STANDIN_URL || null;
}
