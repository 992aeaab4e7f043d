import { asService, runInTransaction, sqlArray, sqlLiteral, statement } from '../../db/tx';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { eventTime, ZStripeEventSchema } from './event-fields';
import { auditStripeEventOnce, recordBillingFailure } from './record-billing-failure';
import { isOutcome, resolveGroupReservations } from './resolve-group-reservations';

/**
 * `payment_intent.payment_failed`: records the failure on each reservation of the group and one
 * billing failure for the day (in the facility's time zone) — once per event, even when the event
 * is handled twice at the same moment.
 */
export async function handlePaymentIntentPaymentFailed(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const intentId = String(event.data.object.id ?? '');
  const resolved = await resolveGroupReservations({
    paymentIntentId: intentId,
    account: event.account ?? null,
    eventId: stored.id,
  });
  if (isOutcome(resolved)) return resolved;
  const { tenantId, reservationIds } = resolved;
  const failure = event.data.object.last_payment_error as { code?: string } | undefined;
  await asService({ tenantId }, async (tx) => {
    const [rooms] = await runInTransaction(tx, [
      statement<{ id: string; room_id: string; time_zone: string }>(`select r.id, r.room_id, f.time_zone
      from reservations r join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
      join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
      where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and r.id = any(${sqlArray(reservationIds, 'uuid')}) order by r.starts_at, r.id`),
    ]);
    for (const row of rooms) {
      await auditStripeEventOnce(tx, {
        tenantId,
        stripeEventId: event.id,
        action: 'reservation.payment_failed',
        subjectId: row.id,
        roomId: row.room_id,
        reason: failure?.code ?? null,
        metadata: { paymentIntentId: intentId },
      });
    }
    await recordBillingFailure(tx, {
      tenantId,
      kind: 'payment_intent.payment_failed',
      at: eventTime(event),
      facilityTimeZone: rooms[0]?.time_zone ?? null,
      detail: { paymentIntentId: intentId, code: failure?.code ?? null, stripeEventId: event.id },
    });
  });
  return { status: 'processed' };
}
