import { asService } from '../../db/tx';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { tenantOfAccount } from './customer-subscription';
import { eventTime, ZStripeEventSchema } from './event-fields';
import { recordBillingFailure } from './record-billing-failure';

/** `invoice.payment_failed`: one billing failure per tenant, kind and day in the tenant's time zone. */
export async function handleInvoicePaymentFailed(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const tenantId = await tenantOfAccount(event.account);
  if (!tenantId) return { status: 'ignored', reason: 'unknown_account' };
  const invoice = event.data.object;
  await asService({ tenantId }, (tx) =>
    recordBillingFailure(tx, {
      tenantId,
      kind: 'invoice.payment_failed',
      at: eventTime(event),
      detail: { invoiceId: invoice.id ?? null, amountDue: invoice.amount_due ?? null, stripeEventId: event.id },
    }),
  );
  return { status: 'processed' };
}
