import { z } from 'zod';
import { appBaseUrl } from '../auth/guest-links';
import { HOLD_MINUTES } from '../booking-site/booking-requests';
import type { TRates } from '../booking-site/pricing';
import { runStatements, sqlLiteral, statement, effectStatement } from '../db/tx';
import { AppError, isAppError } from '../errors';
import { createHoldCheckoutSession, expireCheckoutSession } from '../payments/checkout-sessions';
import { stripeClient } from '../payments/stripe-client';
import {
  extensionAmount,
  extensionEnd,
  extensionOptions,
  latestExtensionEnd,
  type TExtendableStay,
  type TExtensionOption,
  type TExtensionRules,
} from './extension-quote';

// A guest extends their stay from the key page (issue 31, item 4; decision 029). The price is the rate table's for
// the added time, computed here; the database decides whether the room is free (room_holds' exclusion constraint).

/** The body of `POST /api/guest/{token}/extension`: the new end, or a night facility's new check-out day. */
export const ZExtensionBodySchema = z.union([
  z.strictObject({ endsAt: z.string().min(1).max(64) }),
  z.strictObject({ checkOut: z.string().min(1).max(10) }),
]);
export type TExtensionBody = z.infer<typeof ZExtensionBodySchema>;

export type TExtensionResult = {
  status: 'extended' | 'awaiting_payment';
  amountCents: number;
  paymentUrl: string | null;
};

/** What the guest page offers: the stay's ends with their prices, and an extension waiting for its payment. */
export type TExtensionOffer = {
  currency: string;
  unit: 'night' | 'hour';
  paymentMode: 'none' | 'online' | 'at_property';
  options: TExtensionOption[];
  pending: { endsAt: string; amountCents: number; paymentUrl: string | null } | null;
};

type ContextRow = {
  status: string;
  ends_at: Date;
  latest_end: Date | null;
  unit: 'night' | 'hour';
  time_zone: string;
  country: string;
  tax_mode: 'included' | 'added';
  tax_rate_bp: number;
  currency: string;
  payment_mode: 'none' | 'online' | 'at_property';
  check_out_time: string;
  opens_at: string | null;
  closes_at: string | null;
  weekday_cents: number;
  weekend_cents: number | null;
  holiday_cents: number | null;
  held_ends_at: Date | null;
  held_amount_cents: number | null;
  held_url: string | null;
};

type Context = { stay: TExtendableStay & { status: string }; rules: TExtensionRules; rates: TRates; row: ContextRow };

/** The stay, its room's rates (its room type's, else the room's own rate) and its facility's rules, as the service. */
async function readContext(tenantId: string, reservationId: string): Promise<Context> {
  const t = sqlLiteral(tenantId, 'uuid');
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<ContextRow>(
      `select r.status::text as status, r.ends_at, app_stay_latest_end(r.tenant_id, r.id) as latest_end,
              f.booking_unit::text as unit, f.time_zone, f.country, f.tax_mode::text as tax_mode, f.tax_rate_bp,
              case when rt.id is null then ro.currency else f.currency end as currency,
              f.payment_mode::text as payment_mode, to_char(f.check_out_time, 'HH24:MI') as check_out_time,
              to_char(f.opens_at, 'HH24:MI') as opens_at, to_char(f.closes_at, 'HH24:MI') as closes_at,
              coalesce(rt.weekday_cents, ro.rate_cents) as weekday_cents, rt.weekend_cents, rt.holiday_cents,
              e.ends_at as held_ends_at, e.amount_cents as held_amount_cents, e.checkout_url as held_url
         from reservations r
         join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
         join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
         left join room_types rt on rt.tenant_id = ro.tenant_id and rt.id = ro.room_type_id
         left join stay_extensions e on e.tenant_id = r.tenant_id and e.reservation_id = r.id and e.status = 'held'
                                    and e.hold_expires_at > now()
        where r.tenant_id = ${t} and r.id = ${sqlLiteral(reservationId, 'uuid')}`,
    ),
  ]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', 'This key link is unknown or has expired.');
  return {
    row,
    stay: {
      status: row.status,
      endsAt: new Date(row.ends_at),
      latestEndsAt: row.latest_end && new Date(row.latest_end),
    },
    rules: {
      unit: row.unit,
      timeZone: row.time_zone,
      country: row.country,
      taxMode: row.tax_mode,
      taxRateBp: Number(row.tax_rate_bp),
      checkOutTime: row.check_out_time,
      opensAt: row.opens_at,
      closesAt: row.closes_at,
    },
    rates: {
      weekdayCents: Number(row.weekday_cents),
      weekendCents: row.weekend_cents === null ? null : Number(row.weekend_cents),
      holidayCents: row.holiday_cents === null ? null : Number(row.holiday_cents),
    },
  };
}

/** A live stay as the guest's link found it (lib/guests/guest-extension.ts resolves the link). */
export type GuestStayRef = { tenantId: string; reservationId: string; status: string; endsAt: Date };

const LIVE = new Set(['confirmed', 'checked_in']);

/** The stay, if it can still change: confirmed or checked in and not over (404 otherwise, as an ended link reads). */
function liveStayOf(stay: GuestStayRef) {
  if (!LIVE.has(stay.status) || stay.endsAt <= new Date())
    throw new AppError('not_found', 'This key link is unknown or has expired.');
  return stay;
}

/** What the guest page offers for extending the stay of a live link; null when it cannot be extended now. */
export async function extensionOffer(stay: {
  tenantId: string;
  reservationId: string;
  status: string;
  endsAt: Date;
}): Promise<TExtensionOffer | null> {
  if (!LIVE.has(stay.status) || stay.endsAt <= new Date()) return null;
  const context = await readContext(stay.tenantId, stay.reservationId);
  const { row } = context;
  return {
    currency: row.currency,
    unit: row.unit,
    paymentMode: row.payment_mode,
    options: extensionOptions(context.stay, context.rules, context.rates),
    pending:
      row.held_ends_at && row.held_amount_cents !== null
        ? {
            endsAt: new Date(row.held_ends_at).toISOString(),
            amountCents: Number(row.held_amount_cents),
            paymentUrl: row.held_url,
          }
        : null,
  };
}

type ExtensionRow = { id: string; status: 'held' | 'applied'; amount_cents: number; checkout_url: string | null };

/**
 * `POST /api/guest/{token}/extension`: the stay of a live link ends later on the same room. Priced here (the added
 * nights or steps only); applied at once where the facility takes no online payment (the amount owed at the property),
 * else the added time is held for HOLD_MINUTES and the answer carries the Checkout page to pay it on. A room taken
 * over that time → 409 `room_unavailable` with `latestEndsAt`; an end not later → 400; the stay changed meanwhile →
 * 409 `conflict`.
 */
export async function requestStayExtension(
  link: { token: string; stay: GuestStayRef },
  body: unknown,
): Promise<TExtensionResult> {
  const { token } = link;
  const parsed = ZExtensionBodySchema.safeParse(body);
  if (!parsed.success) {
    throw new AppError('invalid_request', 'Send the new end as endsAt (or a night facility’s checkOut day).', {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message, code: i.code })),
    });
  }
  const { tenantId, reservationId } = liveStayOf(link.stay);
  const context = await readContext(tenantId, reservationId);
  const endsAt = extensionEnd(context.stay, context.rules, parsed.data);
  const amountCents = extensionAmount(context.stay, context.rules, context.rates, endsAt);
  let extension: ExtensionRow;
  try {
    const [rows] = await runStatements({ role: 'app_service', tenantId }, [
      statement<ExtensionRow>(
        `select id, status::text as status, amount_cents, checkout_url
           from app_request_stay_extension(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(reservationId, 'uuid')},
                ${sqlLiteral(context.stay.endsAt, 'timestamptz')}, ${sqlLiteral(endsAt, 'timestamptz')},
                ${sqlLiteral(amountCents, 'int4')}, ${sqlLiteral(context.row.currency, 'text')},
                ${sqlLiteral(context.row.payment_mode, 'payment_mode')}, ${sqlLiteral(HOLD_MINUTES, 'int4')})`,
      ),
    ]);
    extension = rows[0]!;
  } catch (error) {
    if (!isAppError(error) || error.code !== 'room_unavailable') throw error;
    // What is free now, read after the refusal: the stay that took the room is in it.
    const now = await readContext(tenantId, reservationId);
    throw new AppError(
      'room_unavailable',
      'The room is taken for part of that time; the stay can end at the latest at latestEndsAt.',
      { latestEndsAt: latestExtensionEnd(now.stay, now.rules, now.rates).toISOString() },
      { cause: error },
    );
  }
  if (extension.status === 'applied') {
    return { status: 'extended', amountCents: Number(extension.amount_cents), paymentUrl: null };
  }
  const paymentUrl =
    extension.checkout_url ?? (await startExtensionCheckout({ tenantId, extensionId: extension.id, token }));
  return { status: 'awaiting_payment', amountCents: Number(extension.amount_cents), paymentUrl };
}

type CheckoutRow = {
  amount_cents: number;
  currency: string;
  hold_expires_at: Date;
  checkout_url: string | null;
  stripe_account_id: string | null;
  facility_name: string;
  room_label: string;
  reservation_id: string;
  locale: string;
  guest_email: string | null;
};

/**
 * The Stripe Checkout Session of a held extension, with the `stripe` SDK on the tenant's connected account, once per
 * extension (idempotency key), for the extension's amount only, expiring with its hold; its metadata names it an
 * extension (`kind: stay_extension`) so the webhook tells it from a booking. Success brings the guest back to their
 * key page. Outside any transaction; Stripe unreachable → 503 `unavailable` (the hold stays until its end).
 */
export async function startExtensionCheckout(input: {
  tenantId: string;
  extensionId: string;
  token: string;
}): Promise<string> {
  const { tenantId, extensionId, token } = input;
  const stripe = stripeClient();
  if (!stripe) throw new AppError('unavailable', 'Online payment is not set up for this facility yet.');
  const scope = { role: 'app_service' as const, tenantId };
  const [rows] = await runStatements(scope, [
    statement<CheckoutRow>(
      `select e.amount_cents, e.currency, e.hold_expires_at, e.checkout_url, t.stripe_account_id,
              f.name as facility_name, r.room_label_snapshot as room_label, r.id as reservation_id,
              coalesce(r.locale, 'en') as locale, gu.email as guest_email
         from stay_extensions e
         join tenants t on t.id = e.tenant_id
         join reservations r on r.tenant_id = e.tenant_id and r.id = e.reservation_id
         join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
         join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
         left join guests gu on gu.tenant_id = r.tenant_id and gu.id = r.guest_id
        where e.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and e.id = ${sqlLiteral(extensionId, 'uuid')}
          and e.status = 'held'`,
    ),
  ]);
  const row = rows[0];
  if (!row) throw new AppError('conflict', 'This extension is no longer waiting for its payment.');
  if (row.checkout_url) return row.checkout_url;
  const page = `${appBaseUrl()}/k/${token}`;
  const params = {
    mode: 'payment' as const,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: row.currency,
          unit_amount: Number(row.amount_cents),
          product_data: { name: `${row.facility_name} — ${row.room_label} (extension)` },
        },
      },
    ],
    client_reference_id: extensionId,
    metadata: { kind: 'stay_extension', stayExtensionId: extensionId, reservationId: row.reservation_id, tenantId },
    success_url: `${page}?extension=paid`,
    cancel_url: page,
    ...(row.guest_email ? { customer_email: row.guest_email } : {}),
    locale: row.locale === 'ja' ? ('ja' as const) : ('en' as const),
  };
  const session = await createHoldCheckoutSession(stripe, params, {
    idempotencyKey: `extension-checkout:${extensionId}`,
    stripeAccount: row.stripe_account_id,
    holdExpiresAt: row.hold_expires_at,
    logContext: { extensionId },
  });
  await runStatements(scope, [
    effectStatement(
      `update stay_extensions set checkout_session_id = ${sqlLiteral(session.id, 'text')},
              checkout_url = ${sqlLiteral(session.url, 'text')}, updated_at = now()
        where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(extensionId, 'uuid')}
          and checkout_session_id is null`,
    ),
  ]);
  return session.url;
}

/**
 * Releases a held extension that was not paid (the worker's job at the hold's end; `now` when Stripe said its session
 * expired): the stay keeps its end and the added time is free. The session is then expired on Stripe (best effort: a
 * payment after the release is refunded anyway).
 */
export async function releaseStayExtension(input: { tenantId: string; extensionId: string; now?: boolean }) {
  const { tenantId, extensionId } = input;
  const [released, sessions] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ released: number }>(
      `select app_release_stay_extension(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(extensionId, 'uuid')},
              'payment_timeout', ${sqlLiteral(input.now === true, 'bool')}) as released`,
    ),
    statement<{ checkout_session_id: string | null; stripe_account_id: string | null }>(
      `select e.checkout_session_id, t.stripe_account_id from stay_extensions e join tenants t on t.id = e.tenant_id
        where e.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and e.id = ${sqlLiteral(extensionId, 'uuid')}`,
    ),
  ]);
  const count = Number(released[0]?.released ?? 0);
  const session = sessions[0];
  const stripe = stripeClient();
  if (count > 0 && !input.now && stripe && session?.checkout_session_id) {
    await expireCheckoutSession(stripe, session.checkout_session_id, session.stripe_account_id, { extensionId });
  }
  return count;
}
