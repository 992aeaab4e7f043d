import { asService } from '../../db/tx';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { eventTime, ZStripeEventSchema } from './event-fields';
import { isOutcome, resolveGroupReservations } from './resolve-group-reservations';

/** `payment_intent.succeeded`: marks every reservation of the intent's group paid, once, audited `reservation.paid`. */
export async function handlePaymentIntentSucceeded(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const intentId = String(event.data.object.id ?? '');
  const resolved = await resolveGroupReservations({ paymentIntentId: intentId, account: event.account ?? null, eventId: stored.id });
  if (isOutcome(resolved)) return resolved;
  const { tenantId, reservationIds } = resolved;
  await asService({ tenantId }, async (tx) => {
    const paid = await tx.$queryRaw<{ id: string; room_id: string }[]>`update reservations set paid_at = ${eventTime(event)}
      where tenant_id = ${tenantId}::uuid and id = any(${reservationIds}::uuid[]) and paid_at is null returning id, room_id`;
    for (const row of paid) {
      await tx.auditEvent.create({
        data: {
          tenantId, actorType: 'provider', actorId: event.id, actorLabel: 'Stripe', action: 'reservation.paid',
          subjectType: 'reservation', subjectId: row.id, roomId: row.room_id, metadata: { paymentIntentId: intentId, stripeEventId: event.id },
        },
      });
    }
  });
  return { status: 'processed' };
}
