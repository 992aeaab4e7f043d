import type Stripe from 'stripe';
import { AppError } from '../errors';
import { logger } from '../log/logger';

// Stripe Checkout Sessions of a hold (a booking group's, decision 026; a stay extension's, decision 029): made with
// the `stripe` SDK on the tenant's connected account, expiring with the hold, and expired when the hold is released.

const unavailable = () =>
  new AppError('unavailable', 'The payment page could not be opened; try again in a moment.', { retryAfter: 5 });

/**
 * Creates the session once (`idempotencyKey`) to expire at `holdExpiresAt`. Live Stripe takes an expiry at least 30
 * minutes ahead and the hold is shorter: then the session lasts 30 minutes (its own idempotency key) and the hold's
 * release expires it; a payment after that is refunded. Stripe unreachable → 503 `unavailable`. Never in a transaction.
 */
export async function createHoldCheckoutSession(
  stripe: Stripe,
  params: Stripe.Checkout.SessionCreateParams,
  options: { idempotencyKey: string; stripeAccount: string | null; holdExpiresAt: Date | string; logContext: object },
): Promise<{ id: string; url: string }> {
  const account = options.stripeAccount ? { stripeAccount: options.stripeAccount } : {};
  const holdEnd = Math.floor(new Date(options.holdExpiresAt).getTime() / 1000);
  let session;
  try {
    try {
      session = await stripe.checkout.sessions.create(
        { ...params, expires_at: holdEnd },
        { idempotencyKey: options.idempotencyKey, ...account },
      );
    } catch (error) {
      if ((error as { param?: string }).param !== 'expires_at') throw error;
      session = await stripe.checkout.sessions.create(
        { ...params, expires_at: Math.floor(Date.now() / 1000) + 31 * 60 },
        { idempotencyKey: `${options.idempotencyKey}:30min`, ...account },
      );
    }
  } catch (error) {
    logger.warn({ ...options.logContext, code: (error as { code?: string }).code }, 'checkout session not created');
    throw unavailable();
  }
  if (!session.url) throw unavailable();
  return { id: session.id, url: session.url };
}

/** Expires a released hold's session on Stripe so it cannot be paid (best effort: a late payment is refunded). */
export async function expireCheckoutSession(
  stripe: Stripe,
  sessionId: string,
  stripeAccount: string | null,
  logContext: object,
): Promise<void> {
  await stripe.checkout.sessions.expire(sessionId, {}, stripeAccount ? { stripeAccount } : {}).then(
    () => undefined,
    (error: { code?: string }) => logger.info({ ...logContext, code: error.code }, 'session not expired'),
  );
}
