import { asService } from '../db/tx';
import { logger } from '../log/logger';
import { stayAmountCents } from './stay-amount';
import type { BookingUnit } from '../db/generated/enums';
import { stripeClient } from './stripe-client';

/** The group's price: each room's rate times its units (nights or hours, at least one), in one currency. */
export function groupAmount(
  items: { rateCents: number; rateUnit: BookingUnit; currency: string; startsAt: Date; endsAt: Date }[],
): { amount: number; currency: string } | null {
  const currencies = new Set(items.map((i) => i.currency));
  if (currencies.size !== 1) return null;
  const amount = items.reduce((sum, i) => sum + stayAmountCents(i), 0);
  return { amount, currency: [...currencies][0]! };
}

/**
 * Creates the group's one PaymentIntent after the hold has committed (idempotency key = group id,
 * group id in metadata, on the tenant's Connect account when it has one) and records it on the
 * group. Returns the intent id, or null when payments are not configured or Stripe failed (logged).
 */
export async function createGroupPaymentIntent({
  tenantId,
  bookingGroupId,
}: {
  tenantId: string;
  bookingGroupId: string;
}): Promise<string | null> {
  const stripe = stripeClient();
  if (!stripe) return null;
  const group = await asService({ tenantId }, async (tx) => {
    const groups = await tx.bookingGroup.findMany({
      where: { tenantId, id: bookingGroupId },
      include: {
        tenant: { select: { stripeAccountId: true } },
        reservations: { include: { room: { select: { rateCents: true, rateUnit: true, currency: true } } } },
      },
    });
    return groups[0] ?? null;
  });
  if (!group) return null;
  if (group.paymentIntentId) return group.paymentIntentId;
  const price = groupAmount(group.reservations.map((r) => ({ ...r.room, startsAt: r.startsAt, endsAt: r.endsAt })));
  if (!price) {
    logger.warn({ bookingGroupId }, 'booking group mixes currencies; no payment intent created');
    return null;
  }
  try {
    const intent = await stripe.paymentIntents.create(
      { amount: price.amount, currency: price.currency, metadata: { bookingGroupId, tenantId } },
      {
        idempotencyKey: `booking-group:${bookingGroupId}`,
        ...(group.tenant.stripeAccountId ? { stripeAccount: group.tenant.stripeAccountId } : {}),
      },
    );
    await asService({ tenantId }, (tx) =>
      tx.bookingGroup.updateMany({
        where: { tenantId, id: bookingGroupId, paymentIntentId: null },
        data: { paymentIntentId: intent.id, amountCents: price.amount, currency: price.currency },
      }),
    );
    return intent.id;
  } catch (error) {
    logger.warn(
      { bookingGroupId, stripeCode: (error as { code?: string }).code, stripeType: (error as { type?: string }).type },
      'creating the payment intent failed',
    );
    return null;
  }
}
