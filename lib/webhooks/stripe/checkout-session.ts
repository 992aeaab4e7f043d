import { z } from 'zod';
import { releaseBookingHold } from '../../booking-site/checkout';
import { runStatements, sqlLiteral, statement } from '../../db/tx';
import { stripeClient } from '../../payments/stripe-client';
import { releaseStayExtension } from '../../stays/extend-stay';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { ZStripeEventSchema } from './event-fields';

const ZSessionSchema = z.object({
  id: z.string().min(1),
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

type Session = z.infer<typeof ZSessionSchema>;

/** A session we made for a guest's stay extension (lib/stays/extend-stay.ts), not for a booking. */
function extensionOf(session: Session): { tenantId: string; extensionId: string } | null {
  const meta = session.metadata;
  if (meta?.kind !== 'stay_extension') return null;
  const ids = z.object({ tenantId: z.uuid(), stayExtensionId: z.uuid() }).safeParse(meta);
  return ids.success ? { tenantId: ids.data.tenantId, extensionId: ids.data.stayExtensionId } : null;
}

type ExtensionHolder = {
  tenant_account: string | null;
  amount_cents: number;
  currency: string;
  checkout_session_id: string | null;
};

/**
 * The extension a session names in its metadata, only if that tenant holds it under this very session id and the
 * event's Connect `account` is the tenant's; `ignored` / `failed` otherwise, as for bookings.
 */
async function extensionHolder(
  named: { tenantId: string; extensionId: string },
  sessionId: string,
  account: string | null,
): Promise<ExtensionHolder | WebhookOutcome> {
  const [rows] = await runStatements({ role: 'app_service', tenantId: named.tenantId }, [
    statement<ExtensionHolder>(
      `select t.stripe_account_id as tenant_account, e.amount_cents, e.currency, e.checkout_session_id
         from stay_extensions e join tenants t on t.id = e.tenant_id
        where e.tenant_id = ${sqlLiteral(named.tenantId, 'uuid')} and e.id = ${sqlLiteral(named.extensionId, 'uuid')}
          and e.checkout_session_id = ${sqlLiteral(sessionId, 'text')}`,
    ),
  ]);
  const row = rows[0];
  if (!row) return { status: 'ignored', reason: 'no_matching_booking' };
  if (row.tenant_account !== account) return { status: 'failed', reason: 'tenant_mismatch' };
  return row;
}

/**
 * A paid extension's session: the extension is applied once (app_stay_extension_paid: the stay's new end, its keys
 * re-windowed in place, the stay_changed mail); a payment after its hold was released is refunded once and recorded
 * with an incident.
 */
async function extensionCompleted(
  named: { tenantId: string; extensionId: string },
  session: Session,
  account: string | null,
): Promise<WebhookOutcome> {
  const holder = await extensionHolder(named, session.id, account);
  if ('status' in holder) return holder;
  const amount = session.amount_total ?? null;
  const currency = session.currency?.toLowerCase() ?? null;
  if (amount !== Number(holder.amount_cents) || currency !== holder.currency) {
    return { status: 'failed', reason: 'amount_mismatch' };
  }
  const intentId =
    typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  const scope = { role: 'app_service' as const, tenantId: named.tenantId };
  const t = sqlLiteral(named.tenantId, 'uuid');
  const e = sqlLiteral(named.extensionId, 'uuid');
  const [outcomes] = await runStatements(scope, [
    statement<{ outcome: string }>(
      `select app_stay_extension_paid(${t}, ${e}, ${sqlLiteral(session.id, 'text')}, ${sqlLiteral(intentId, 'text')},
              ${sqlLiteral(amount, 'int4')}, ${sqlLiteral(currency, 'text')}) as outcome`,
    ),
  ]);
  const outcome = outcomes[0]?.outcome;
  if (outcome === 'applied' || outcome === 'already_applied') return { status: 'processed' };
  if (outcome !== 'released') return { status: 'ignored', reason: 'no_matching_booking' };
  const stripe = stripeClient();
  if (!stripe || !intentId) return { status: 'failed', reason: 'late_payment_not_refundable' };
  const refund = await stripe.refunds.create(
    { payment_intent: intentId, metadata: { stayExtensionId: named.extensionId, reason: 'payment_after_release' } },
    {
      idempotencyKey: `late-payment-refund:${session.id}`,
      ...(holder.tenant_account ? { stripeAccount: holder.tenant_account } : {}),
    },
  );
  await runStatements(scope, [
    statement(
      `select app_stay_extension_refunded(${t}, ${e}, ${sqlLiteral(session.id, 'text')}, ${sqlLiteral(refund.id, 'text')},
              ${sqlLiteral(amount, 'int4')}, ${sqlLiteral(currency, 'text')})`,
    ),
  ]);
  return { status: 'processed' };
}

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
  const extension = extensionOf(session);
  if (extension) return extensionCompleted(extension, session, event.account ?? null);
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
  const extension = extensionOf(session);
  if (extension) {
    const holder = await extensionHolder(extension, session.id, event.account ?? null);
    if ('status' in holder) return holder;
    await releaseStayExtension({ ...extension, now: true });
    return { status: 'processed' };
  }
  const holder = await groupOfSession(session.id, event.account ?? null);
  if (isOutcome(holder)) return holder;
  await releaseBookingHold({ tenantId: holder.tenant_id, bookingGroupId: holder.booking_group_id, now: true });
  return { status: 'processed' };
}
