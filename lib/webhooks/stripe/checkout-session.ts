import { z } from 'zod';
import { releaseBookingHold } from '../../booking-site/checkout';
import { runStatements, sqlLiteral, statement } from '../../db/tx';
import { stripeClient } from '../../payments/stripe-client';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { ZStripeEventSchema } from './event-fields';

const ZSessionSchema = z.object({
  id: z.string().min(1),
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
});

type Holder = {
  tenant_id: string;
  booking_group_id: string;
  tenant_account: string | null;
  amount_cents: number | null;
  currency: string | null;
};

/**
 * The booking group of a Checkout Session: the global lookup names the tenants holding the session id, and the
 * event's Connect `account` must be that tenant's (a platform event, without one, belongs to a tenant without an
 * account). Anything else changes nothing: `ignored` for an unknown session, `failed` (tenant_mismatch) for a
 * session another account reported.
 */
async function groupOfSession(sessionId: string, account: string | null): Promise<Holder | WebhookOutcome> {
  const [holders] = await runStatements({ role: 'app_service' }, [
    statement<Holder>(
      `select s.tenant_id, s.booking_group_id, t.stripe_account_id as tenant_account, g.amount_cents, g.currency
         from stripe_checkout_sessions s
         join tenants t on t.id = s.tenant_id
         join booking_groups g on g.tenant_id = s.tenant_id and g.id = s.booking_group_id
        where s.checkout_session_id = ${sqlLiteral(sessionId, 'text')}
        order by s.tenant_id`,
    ),
  ]);
  if (holders.length === 0) return { status: 'ignored', reason: 'no_matching_booking' };
  const mine = holders.filter((h) => h.tenant_account === account);
  if (mine.length !== 1)
    return { status: 'failed', reason: mine.length === 0 ? 'tenant_mismatch' : 'tenant_integrity' };
  return mine[0]!;
}

const isOutcome = (value: Holder | WebhookOutcome): value is WebhookOutcome => 'status' in value;

/**
 * `checkout.session.completed`, paid: the group's held stays become confirmed and paid exactly once and the key
 * link is mailed once (app_checkout_completed). A payment for a hold that was already released is refunded (one
 * refund, whatever the retries: the idempotency key) and recorded with an incident.
 */
export async function handleCheckoutSessionCompleted(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const session = ZSessionSchema.parse(event.data.object);
  if (session.payment_status !== 'paid') return { status: 'ignored', reason: 'not_paid' };
  const holder = await groupOfSession(session.id, event.account ?? null);
  if (isOutcome(holder)) return holder;
  const amount = session.amount_total ?? null;
  const currency = session.currency?.toLowerCase() ?? null;
  if (holder.amount_cents !== null && (amount !== holder.amount_cents || currency !== holder.currency)) {
    return { status: 'failed', reason: 'amount_mismatch' };
  }
  const intentId =
    typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  const scope = { role: 'app_service' as const, tenantId: holder.tenant_id };
  const [outcomes] = await runStatements(scope, [
    statement<{ outcome: string }>(
      `select app_checkout_completed(${sqlLiteral(holder.tenant_id, 'uuid')}, ${sqlLiteral(holder.booking_group_id, 'uuid')},
              ${sqlLiteral(session.id, 'text')}, ${sqlLiteral(intentId, 'text')}, ${sqlLiteral(amount ?? 0, 'int4')},
              ${sqlLiteral(currency ?? '', 'text')}) as outcome`,
    ),
  ]);
  const outcome = outcomes[0]?.outcome;
  if (outcome === 'confirmed' || outcome === 'already_paid') return { status: 'processed' };
  if (outcome !== 'released') return { status: 'ignored', reason: 'no_matching_booking' };
  const stripe = stripeClient();
  if (!stripe || !intentId) return { status: 'failed', reason: 'late_payment_not_refundable' };
  const refund = await stripe.refunds.create(
    {
      payment_intent: intentId,
      metadata: { bookingGroupId: holder.booking_group_id, reason: 'payment_after_release' },
    },
    {
      idempotencyKey: `late-payment-refund:${session.id}`,
      ...(holder.tenant_account ? { stripeAccount: holder.tenant_account } : {}),
    },
  );
  await runStatements(scope, [
    statement(
      `select app_late_payment_refunded(${sqlLiteral(holder.tenant_id, 'uuid')}, ${sqlLiteral(holder.booking_group_id, 'uuid')},
              ${sqlLiteral(session.id, 'text')}, ${sqlLiteral(refund.id, 'text')}, ${sqlLiteral(amount ?? 0, 'int4')},
              ${sqlLiteral(currency ?? '', 'text')})`,
    ),
  ]);
  return { status: 'processed' };
}

/** `checkout.session.expired`: the group's hold is released now (cancelled `payment_timeout`, the room free). */
export async function handleCheckoutSessionExpired(stored: StoredWebhookEvent): Promise<WebhookOutcome> {
  const event = ZStripeEventSchema.parse(stored.payload);
  const session = ZSessionSchema.parse(event.data.object);
  const holder = await groupOfSession(session.id, event.account ?? null);
  if (isOutcome(holder)) return holder;
  await releaseBookingHold({ tenantId: holder.tenant_id, bookingGroupId: holder.booking_group_id, now: true });
  return { status: 'processed' };
}
