import { appBaseUrl } from '../auth/guest-links';
import { AppError } from '../errors';
import { runStatements, sqlLiteral, statement, effectStatement } from '../db/tx';
import { createHoldCheckoutSession, expireCheckoutSession } from '../payments/checkout-sessions';
import { stripeClient } from '../payments/stripe-client';

type GroupRow = {
  amount_cents: number;
  currency: string;
  hold_expires_at: Date | string;
  checkout_url: string | null;
  stripe_account_id: string | null;
  slug: string;
  facility_name: string;
  room_type_name: string;
  guest_email: string | null;
  locale: string;
};

/**
 * The Stripe Checkout Session of a held booking group, made with the `stripe` SDK on the tenant's connected
 * account (`Stripe-Account`) once per group (idempotency key), its amount the group's (from the rate table),
 * expiring with the hold; its id and URL are kept on the group. Outside any transaction (DESIGN.md, Keys 3).
 * Stripe unreachable → 503 `unavailable`: the hold stays until its end, and confirming again tries again.
 */
export async function startCheckout(input: {
  tenantId: string;
  bookingGroupId: string;
  requestId: string;
}): Promise<string> {
  const { tenantId, bookingGroupId, requestId } = input;
  const stripe = stripeClient();
  if (!stripe) throw new AppError('unavailable', 'Online payment is not set up for this facility yet.');
  const scope = { role: 'app_service' as const, tenantId };
  const [groups] = await runStatements(scope, [
    statement<GroupRow>(
      `select g.amount_cents, g.currency, g.hold_expires_at, g.checkout_url, t.stripe_account_id, f.slug,
              f.name as facility_name, r.plan_name_snapshot as room_type_name, gu.email as guest_email,
              coalesce(r.locale, 'en') as locale
         from booking_groups g
         join tenants t on t.id = g.tenant_id
         join reservations r on r.tenant_id = g.tenant_id and r.booking_group_id = g.id
         join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
         join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
         left join guests gu on gu.tenant_id = r.tenant_id and gu.id = r.guest_id
        where g.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and g.id = ${sqlLiteral(bookingGroupId, 'uuid')}
        order by r.id limit 1`,
    ),
  ]);
  const group = groups[0];
  if (!group) throw new AppError('not_found', 'No such booking.');
  if (group.checkout_url) return group.checkout_url;
  const site = `${appBaseUrl()}/b/${group.slug}`;
  const params = {
    mode: 'payment' as const,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: group.currency,
          unit_amount: group.amount_cents,
          product_data: { name: `${group.facility_name} — ${group.room_type_name}` },
        },
      },
    ],
    client_reference_id: bookingGroupId,
    metadata: { bookingGroupId, bookingRequestId: requestId, tenantId },
    success_url: `${site}/done?request=${requestId}`,
    cancel_url: `${site}?request=${requestId}`,
    ...(group.guest_email ? { customer_email: group.guest_email } : {}),
    locale: group.locale === 'ja' ? ('ja' as const) : ('en' as const),
  };
  const session = await createHoldCheckoutSession(stripe, params, {
    idempotencyKey: `checkout:${bookingGroupId}`,
    stripeAccount: group.stripe_account_id,
    holdExpiresAt: group.hold_expires_at,
    logContext: { bookingGroupId },
  });
  await runStatements(scope, [
    effectStatement(
      `update booking_groups set checkout_session_id = ${sqlLiteral(session.id, 'text')},
              checkout_url = ${sqlLiteral(session.url, 'text')}
        where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(bookingGroupId, 'uuid')}
          and checkout_session_id is null`,
    ),
  ]);
  return session.url;
}

/**
 * Releases a booking group's hold that ended unpaid (the worker's job at the hold's end; `now` when Stripe said the
 * session expired): its stays are cancelled `payment_timeout`, the rooms free. The session is then expired on Stripe
 * so that it cannot be paid after the room was given up (best effort: a late payment is refunded anyway).
 */
export async function releaseBookingHold(input: {
  tenantId: string;
  bookingGroupId: string;
  now?: boolean;
}): Promise<number> {
  const { tenantId, bookingGroupId } = input;
  const [released, sessions] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ released: number }>(
      `select app_release_booking_hold(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(bookingGroupId, 'uuid')},
              'payment_timeout', ${sqlLiteral(input.now === true, 'bool')}) as released`,
    ),
    statement<{ checkout_session_id: string | null; stripe_account_id: string | null }>(
      `select g.checkout_session_id, t.stripe_account_id from booking_groups g join tenants t on t.id = g.tenant_id
        where g.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and g.id = ${sqlLiteral(bookingGroupId, 'uuid')}`,
    ),
  ]);
  const count = released[0]?.released ?? 0;
  const session = sessions[0];
  const stripe = stripeClient();
  if (count > 0 && !input.now && stripe && session?.checkout_session_id) {
    await expireCheckoutSession(stripe, session.checkout_session_id, session.stripe_account_id, { bookingGroupId });
  }
  return count;
}
