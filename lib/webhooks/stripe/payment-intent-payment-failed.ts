import { asService } from '../../db/tx';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { ZStripeEventSchema } from './event-fields';
import { isOutcome, resolveGroupReservations } from './resolve-group-reservations';

/** `payment_intent.payment_failed`: records the failure on each reservation of the group, once per event. */
export async function handlePaymentIntentPaymentFailed(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const intentId = String(event.data.object.id ?? '');
  const resolved = await resolveGroupReservations({ paymentIntentId: intentId, account: event.account ?? null, eventId: stored.id });
  if (isOutcome(resolved)) return resolved;
  const { tenantId, reservationIds } = resolved;
  const failure = event.data.object.last_payment_error as { code?: string } | undefined;
  await asService({ tenantId }, async (tx) => {
    const already = await tx.auditEvent.count({ where: { tenantId, action: 'reservation.payment_failed', metadata: { path: ['stripeEventId'], equals: event.id } } });
    if (already > 0) return;
    for (const reservationId of reservationIds) {
      await tx.auditEvent.create({
        data: {
          tenantId, actorType: 'provider', actorId: event.id, actorLabel: 'Stripe', action: 'reservation.payment_failed',
          subjectType: 'reservation', subjectId: reservationId, reason: failure?.code ?? null, metadata: { paymentIntentId: intentId, stripeEventId: event.id },
        },
      });
    }
  });
  return { status: 'processed' };
}
