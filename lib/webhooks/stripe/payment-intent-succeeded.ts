import { openIncident } from '../../incidents/incidents';
import { asService, runInTransaction, sqlArray, sqlLiteral, statement } from '../../db/tx';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { eventTime, ZStripeEventSchema } from './event-fields';
import { auditStripeEventOnce } from './record-billing-failure';
import { isOutcome, resolveGroupReservations } from './resolve-group-reservations';

/**
 * `payment_intent.succeeded`: marks every reservation of the intent's group paid, once, audited
 * `reservation.paid`. A group that knows its price (the intent we made, or the amount Stripe held
 * when the caller attached theirs) is paid only by exactly that amount in that currency; anything
 * else fails closed with an incident.
 */
export async function handlePaymentIntentSucceeded(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const intent = event.data.object;
  const intentId = String(intent.id ?? '');
  const resolved = await resolveGroupReservations({
    paymentIntentId: intentId,
    account: event.account ?? null,
    eventId: stored.id,
  });
  if (isOutcome(resolved)) return resolved;
  const { tenantId, reservationIds, groups } = resolved;
  const received = typeof intent.amount_received === 'number' ? intent.amount_received : intent.amount;
  const currency = typeof intent.currency === 'string' ? intent.currency.toLowerCase() : null;
  const mismatched = groups.filter(
    (g) => g.amountCents !== null && (g.amountCents !== received || (g.currency ?? '').toLowerCase() !== currency),
  );
  if (mismatched.length > 0) {
    await asService({ tenantId }, (tx) =>
      openIncident(tx, {
        tenantId,
        conditionKey: `payment_mismatch:${intentId}`,
        kind: 'payment_mismatch',
        severity: 'critical',
        summary: 'Stripe reported a payment that does not match what the booking costs; nothing was marked paid.',
        detail: {
          paymentIntentId: intentId,
          webhookEventId: stored.id,
          received,
          currency,
          expected: mismatched.map((g) => ({ bookingGroupId: g.id, amountCents: g.amountCents, currency: g.currency })),
        },
      }),
    );
    return { status: 'failed', reason: 'amount_mismatch' };
  }
  await asService({ tenantId }, async (tx) => {
    const [paid] = await runInTransaction(tx, [
      statement<{
        id: string;
        room_id: string;
      }>(`update reservations set paid_at = ${sqlLiteral(eventTime(event), 'timestamptz')}
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = any(${sqlArray(reservationIds, 'uuid')}
        ) and paid_at is null returning id, room_id`),
    ]);
    for (const row of paid) {
      await auditStripeEventOnce(tx, {
        tenantId,
        stripeEventId: event.id,
        action: 'reservation.paid',
        subjectId: row.id,
        roomId: row.room_id,
        metadata: { paymentIntentId: intentId },
      });
    }
  });
  return { status: 'processed' };
}
