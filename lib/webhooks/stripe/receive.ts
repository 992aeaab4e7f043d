import { AppError } from '../../errors';
import { stripeWebhooks } from '../../payments/stripe-client';
import { storeWebhookEvent } from '../inbox';
import { parseVerifiedBody } from '../verify-for-tenant';
import { ZStripeEventSchema } from './event-fields';

/**
 * Receives one Stripe delivery: verifies the signature over the raw bytes (the SDK's 300 s
 * tolerance), stores the event and queues its processing. Nothing is stored for a bad signature.
 */
export async function receiveStripeWebhook(raw: Uint8Array, signature: string | null): Promise<{ duplicate: boolean }> {
  const secret = process.env.STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new AppError('unavailable', 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).');
  if (!signature) throw new AppError('invalid_signature', 'The Stripe-Signature header is missing.');
  try {
    stripeWebhooks().constructEvent(Buffer.from(raw), signature, secret);
  } catch {
    throw new AppError('invalid_signature', 'The Stripe signature does not match, or the timestamp is too old.');
  }
  // Verified: parsed again with the depth limit (one nesting too deep is kept as failed, never a 500).
  const verified = await parseVerifiedBody(raw, { provider: 'stripe', tenantId: null });
  const parsed = ZStripeEventSchema.safeParse(verified);
  if (!parsed.success) throw new AppError('invalid_request', 'The event is not a Stripe event.');
  const event = parsed.data;
  const stored = await storeWebhookEvent({
    provider: 'stripe',
    dedupeKey: event.id,
    type: event.type,
    tenantId: null,
    stripeAccount: event.account ?? null,
    payload: verified,
    providerCreatedAt: new Date(event.created * 1000),
  });
  return { duplicate: stored.duplicate };
}
