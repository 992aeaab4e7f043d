import { asService, effectStatement, runInTransaction, sqlLiteral } from '../../db/tx';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { eventTime, ZStripeEventSchema } from './event-fields';

/** The tenant a Connect event is about, by its `account`; null when no tenant has that account. */
export async function tenantOfAccount(account: string | null | undefined): Promise<string | null> {
  if (!account) return null;
  const tenants = await asService((tx) =>
    tx.tenant.findMany({ where: { stripeAccountId: account }, select: { id: true } }),
  );
  return tenants.length === 1 ? tenants[0]!.id : null;
}

/**
 * `customer.subscription.created|updated|deleted`: converges the tenant's `subscriptions` row on the
 * object's state; an event older than what is stored (Stripe's own `created`) changes nothing.
 */
export async function handleCustomerSubscription(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const tenantId = await tenantOfAccount(event.account);
  if (!tenantId) return { status: 'ignored', reason: 'unknown_account' };
  const sub = event.data.object;
  const id = String(sub.id ?? '');
  if (!id.startsWith('sub_')) return { status: 'ignored', reason: 'not_a_subscription' };
  const status = event.type === 'customer.subscription.deleted' ? 'canceled' : String(sub.status ?? 'unknown');
  const items =
    (sub.items as { data?: { price?: { nickname?: string | null; id?: string } }[] } | undefined)?.data ?? [];
  const plan = items[0]?.price?.nickname ?? items[0]?.price?.id ?? null;
  const periodEnd = typeof sub.current_period_end === 'number' ? new Date(sub.current_period_end * 1000) : null;
  const customer = typeof sub.customer === 'string' ? sub.customer : null;
  await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      effectStatement(`insert into subscriptions (tenant_id, stripe_subscription_id, stripe_customer_id, status, plan, current_period_end, stripe_updated_at, updated_at)
      values (${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(id, 'text')}, ${sqlLiteral(customer, 'text')},
        ${sqlLiteral(status, 'text')}, ${sqlLiteral(plan, 'text')}, ${sqlLiteral(periodEnd, 'timestamptz')},
        ${sqlLiteral(eventTime(event), 'timestamptz')}, now())
      on conflict (tenant_id, stripe_subscription_id) do update set
        stripe_customer_id = excluded.stripe_customer_id, status = excluded.status, plan = excluded.plan,
        current_period_end = excluded.current_period_end, stripe_updated_at = excluded.stripe_updated_at, updated_at = now()
      where subscriptions.stripe_updated_at is null or subscriptions.stripe_updated_at <= excluded.stripe_updated_at`),
    ]),
  );
  return { status: 'processed' };
}
