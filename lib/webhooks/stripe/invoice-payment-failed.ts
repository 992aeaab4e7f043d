import { asService } from '../../db/tx';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { eventTime, ZStripeEventSchema } from './event-fields';
import { tenantOfAccount } from './customer-subscription';

/** `invoice.payment_failed`: one billing failure per tenant, kind and day (insert … on conflict do nothing). */
export async function handleInvoicePaymentFailed(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const tenantId = await tenantOfAccount(event.account);
  if (!tenantId) return { status: 'ignored', reason: 'unknown_account' };
  const invoice = event.data.object;
  const day = eventTime(event).toISOString().slice(0, 10);
  await asService({ tenantId }, (tx) =>
    tx.$executeRaw`insert into billing_failures (tenant_id, kind, day, detail)
      values (${tenantId}::uuid, 'invoice.payment_failed', ${day}::date,
              ${JSON.stringify({ invoiceId: invoice.id ?? null, amountDue: invoice.amount_due ?? null, stripeEventId: event.id })}::jsonb)
      on conflict (tenant_id, kind, day) do nothing`,
  );
  return { status: 'processed' };
}
