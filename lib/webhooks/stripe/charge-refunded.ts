import { asService, runInTransaction, sqlArray, sqlLiteral, statement } from '../../db/tx';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { eventTime, ZStripeEventSchema } from './event-fields';
import { auditStripeEventOnce } from './record-billing-failure';
import { isOutcome, resolveGroupReservations } from './resolve-group-reservations';

/** `charge.refunded`: a fully refunded charge marks its group's reservations refunded, once, audited. */
export async function handleChargeRefunded(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const charge = event.data.object;
  const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : null;
  if (!intentId) return { status: 'ignored', reason: 'no_payment_intent' };
  if (charge.refunded !== true) return { status: 'ignored', reason: 'partial_refund' };
  const resolved = await resolveGroupReservations({
    paymentIntentId: intentId,
    account: event.account ?? null,
    eventId: stored.id,
  });
  if (isOutcome(resolved)) return resolved;
  const { tenantId, reservationIds } = resolved;
  await asService({ tenantId }, async (tx) => {
    const [refunded] = await runInTransaction(tx, [
      statement<{
        id: string;
        room_id: string;
      }>(`update reservations set refunded_at = ${sqlLiteral(eventTime(event), 'timestamptz')}
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = any(${sqlArray(reservationIds, 'uuid')}
        ) and refunded_at is null returning id, room_id`),
    ]);
    for (const row of refunded) {
      await auditStripeEventOnce(tx, {
        tenantId,
        stripeEventId: event.id,
        action: 'reservation.refunded',
        subjectId: row.id,
        roomId: row.room_id,
        metadata: { paymentIntentId: intentId },
      });
    }
  });
  return { status: 'processed' };
}
