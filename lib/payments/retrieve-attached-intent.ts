import { asService } from '../db/tx';
import { AppError } from '../errors';
import { logger } from '../log/logger';
import { stripeClient } from './stripe-client';

export type AttachedIntent = { amountCents: number; currency: string };

/**
 * Checks with Stripe a PaymentIntent that a caller's own checkout made, before a group holds it: it
 * must be on the tenant's connected account (or the platform's, for a tenant without one), else
 * `payment_intent_invalid`. Returns its amount and currency, which the group keeps so that the
 * payment Stripe later reports is checked against them; null when payments are not configured
 * (nothing can be checked — the intent is then only an opaque reference).
 */
export async function retrieveAttachedIntent({
  tenantId,
  paymentIntentId,
}: {
  tenantId: string;
  paymentIntentId: string;
}): Promise<AttachedIntent | null> {
  const stripe = stripeClient();
  if (!stripe) return null;
  const tenants = await asService({ tenantId }, (tx) =>
    tx.tenant.findMany({ where: { id: tenantId }, select: { stripeAccountId: true } }),
  );
  if (tenants.length !== 1) throw new AppError('not_found', 'No such tenant.');
  const account = tenants[0]!.stripeAccountId;
  try {
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {}, account ? { stripeAccount: account } : {});
    return { amountCents: intent.amount, currency: intent.currency.toLowerCase() };
  } catch (error) {
    const { statusCode, code, type } = error as { statusCode?: number; code?: string; type?: string };
    if (statusCode === 404 || code === 'resource_missing') {
      throw new AppError('payment_intent_invalid', 'That PaymentIntent is not on this account’s Stripe account.');
    }
    logger.warn({ stripeCode: code, stripeType: type, statusCode }, 'checking an attached payment intent failed');
    throw new AppError(
      'unavailable',
      'Stripe could not be asked about that PaymentIntent; nothing was held. Try again shortly.',
      { retryAfter: 5 },
    );
  }
}
