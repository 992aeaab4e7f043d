import { randomUUID } from 'node:crypto';
import { guestTokenFor, hashGuestToken } from '../auth/guest-links';
import { AppError } from '../errors';
import { rateLimitHits, type RateLimitRule } from '../ratelimit/rate-limit';
import { runStatements, serviceStatement, sqlLiteral, statement } from '../db/tx';
import { paymentsConfigured } from '../payments/stripe-client';
import { freeRoomStatement, priceChoice } from './availability';
import { bookingCode, bookingCodeHash, CODE_MINUTES } from './booking-code';
import type { TStayChoice } from './booking-window';
import { startCheckout } from './checkout';
import type { BookingSite } from './public-facility';
import { addressKey, mailboxKey } from './hold-keys';

/** How long a verified request holds its room for the guest to pay online. */
export const HOLD_MINUTES = 15;

const hex = (bytes: Uint8Array) => `\\x${Buffer.from(bytes).toString('hex')}`;

/**
 * A guest's booking request at a site (`requireBookingSite`, which counted the address's limit): priced from the rate
 * table, refused at once when no room of the type is free (`limit`, the email's, counted in that round trip), then
 * stored with the hash of a 6-digit code that is mailed to the guest (in the same transaction). Nothing is held yet.
 */
export async function createBookingRequest(input: {
  site: BookingSite;
  roomTypeId: string;
  choice: TStayChoice;
  guest: { name: string; email: string; phone?: string | undefined };
  locale: 'en' | 'ja';
  limit: RateLimitRule[];
  now?: Date;
}): Promise<{ id: string; status: 'awaiting_code'; codeExpiresAt: string }> {
  const { site } = input;
  if (site.facility.payment === 'online' && !paymentsConfigured()) {
    throw new AppError(
      'unavailable',
      'Online payment is not set up for this facility yet; please contact it directly.',
    );
  }
  const { window, quote } = priceChoice(site, input.roomTypeId, input.choice, input.now);
  const id = randomUUID();
  const scope = { role: 'app_service' as const, tenantId: site.tenantId };
  const [, free] = await runStatements(scope, [
    rateLimitHits(input.limit),
    freeRoomStatement(site, input.roomTypeId, window.startsAt, window.endsAt),
  ]);
  if (!free[0]?.free) throw new AppError('room_unavailable', 'No room of this type is free for these dates any more.');
  const [created] = await runStatements(scope, [
    statement<{ id: string; code_expires_at: Date | string }>(
      `select r.id, r.code_expires_at
         from app_create_booking_request(${sqlLiteral(site.tenantId, 'uuid')}, ${sqlLiteral(id, 'uuid')},
                ${sqlLiteral(site.facilityId, 'uuid')}, ${sqlLiteral(input.roomTypeId, 'uuid')},
                ${sqlLiteral(window.startsAt, 'timestamptz')}, ${sqlLiteral(window.endsAt, 'timestamptz')},
                ${sqlLiteral(input.guest.name.trim(), 'text')}, ${sqlLiteral(input.guest.email.trim(), 'text')},
                ${sqlLiteral(input.guest.phone?.trim() || null, 'text')}, ${sqlLiteral(input.locale, 'text')},
                ${sqlLiteral(hex(bookingCodeHash(id, bookingCode(id))), 'bytea')}, ${sqlLiteral(CODE_MINUTES, 'int4')},
                ${sqlLiteral(quote.amountCents, 'int4')}, ${sqlLiteral(site.facility.currency, 'text')},
                ${sqlLiteral(site.facility.payment, 'payment_mode')},
                ${sqlLiteral(mailboxKey(input.guest.email), 'text')}) r`,
    ),
  ]);
  const row = created[0]!;
  return { id: row.id, status: 'awaiting_code', codeExpiresAt: new Date(row.code_expires_at).toISOString() };
}

export type TConfirmation = {
  reservationId: string;
  status: 'held' | 'confirmed';
  paymentUrl: string | null;
  holdExpiresAt: string | null;
};

type ConfirmRow = {
  outcome: 'confirmed' | 'gone' | 'invalid_code' | 'room_unavailable';
  reservation_id: string | null;
  booking_group_id: string | null;
  status: 'held' | 'confirmed' | 'checked_in' | 'checked_out' | 'cancelled' | null;
  hold_expires_at: Date | string | null;
  checkout_url: string | null;
};

function tenantOfRequest(requestId: string) {
  return statement<{ tenant_id: string | null }>(
    `select app_booking_request_tenant(${sqlLiteral(requestId, 'uuid')}) as tenant_id`,
  );
}

/** A booking request as `requireBookingRequest` found it: its id and its tenant. */
export type TBookingRequestRef = { requestId: string; tenantId: string };

/**
 * The booking request `requestId`, with `limit`'s hits counted in the same round trip (a refusal thrown first): what
 * a confirmation reads before its body, so an unknown request is 404 `not_found` unread.
 */
export async function requireBookingRequest(requestId: string, limit: RateLimitRule[]): Promise<TBookingRequestRef> {
  const [, tenants] = await runStatements({ role: 'app_service' }, [rateLimitHits(limit), tenantOfRequest(requestId)]);
  const tenantId = tenants[0]?.tenant_id;
  if (!tenantId) throw new AppError('not_found', 'No such booking request.');
  return { requestId, tenantId };
}

/**
 * The emailed code of a request (`requireBookingRequest`): the right one holds a free room of the type (held for 15
 * minutes with a Stripe Checkout Session when the facility takes payment online, else confirmed with the key link
 * mailed); the same answer again on a repeat. A wrong code → 400 `invalid_code`; the fifth, or a code older than 15
 * minutes → 410 `gone`; no room of the type free → 409 `room_unavailable`; the confirming client `address` or the
 * request's mailbox already holding 2 unpaid stays of the facility → 429 `too_many_holds` (issue 43.4), nothing held.
 */
export async function confirmBookingRequest(input: {
  request: TBookingRequestRef;
  code: string;
  address: string;
}): Promise<TConfirmation> {
  const { requestId, tenantId } = input.request;
  const linkId = randomUUID();
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<ConfirmRow>(
      `select * from app_confirm_booking_request(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(requestId, 'uuid')},
               ${sqlLiteral(hex(bookingCodeHash(requestId, input.code)), 'bytea')},
               ${sqlLiteral(randomUUID(), 'uuid')}, ${sqlLiteral(randomUUID(), 'uuid')}, ${sqlLiteral(linkId, 'uuid')},
               ${sqlLiteral(hex(hashGuestToken(guestTokenFor(linkId))), 'bytea')}, ${sqlLiteral(HOLD_MINUTES, 'int4')},
               ${sqlLiteral(addressKey(input.address), 'text')})`,
    ),
  ]);
  const row = rows[0]!;
  if (row.outcome === 'gone')
    throw new AppError('gone', 'This code has expired or was typed wrong too often; start again.');
  if (row.outcome === 'invalid_code') throw new AppError('invalid_code', 'That code is not right.');
  if (row.outcome === 'room_unavailable')
    throw new AppError('room_unavailable', 'No room of this type is free for these dates any more.');
  const holdExpiresAt = row.hold_expires_at ? new Date(row.hold_expires_at) : null;
  let paymentUrl = row.checkout_url;
  if (row.status === 'held' && holdExpiresAt && !paymentUrl) {
    paymentUrl = await startCheckout({ tenantId, bookingGroupId: row.booking_group_id!, requestId });
  }
  if (row.status === 'cancelled')
    throw new AppError('gone', 'This booking’s hold ended without a payment; start again.');
  return {
    reservationId: row.reservation_id!,
    status: row.status === 'held' ? 'held' : 'confirmed',
    paymentUrl: row.status === 'held' ? paymentUrl : null,
    holdExpiresAt: row.status === 'held' && holdExpiresAt ? holdExpiresAt.toISOString() : null,
  };
}

export type TRequestStatus = {
  id: string;
  status: 'awaiting_code' | 'held' | 'confirmed' | 'cancelled' | 'gone';
  paid: boolean;
  refunded: boolean;
  holdExpiresAt: string | null;
  paymentUrl: string | null;
  roomTypeName: string;
  startsAt: string;
  endsAt: string;
  amountCents: number;
  currency: string;
  payment: 'none' | 'online' | 'at_property';
};

/** Where a request stands, for the confirmation page's polling (nothing personal in it). */
export async function getBookingRequestStatus(input: {
  requestId: string;
  limit: RateLimitRule[];
}): Promise<TRequestStatus> {
  const { tenantId } = await requireBookingRequest(input.requestId, input.limit);
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{
      id: string;
      request_status: 'awaiting_code' | 'confirmed' | 'gone';
      stay_status: string | null;
      paid: boolean;
      refunded: boolean;
      hold_expires_at: Date | string | null;
      checkout_url: string | null;
      room_type_name: string;
      starts_at: Date | string;
      ends_at: Date | string;
      amount_cents: number;
      currency: string;
      payment_mode: 'none' | 'online' | 'at_property';
    }>(
      `select q.id, q.status as request_status, r.status::text as stay_status, r.paid_at is not null as paid,
              r.refunded_at is not null as refunded, g.hold_expires_at, g.checkout_url, t.name as room_type_name,
              q.starts_at, q.ends_at, q.amount_cents, q.currency, q.payment_mode
         from booking_requests q
         join room_types t on t.tenant_id = q.tenant_id and t.id = q.room_type_id
         left join reservations r on r.tenant_id = q.tenant_id and r.id = q.reservation_id
         left join booking_groups g on g.tenant_id = r.tenant_id and g.id = r.booking_group_id
        where q.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and q.id = ${sqlLiteral(input.requestId, 'uuid')}`,
    ),
  ]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', 'No such booking request.');
  const status: TRequestStatus['status'] =
    row.request_status !== 'confirmed'
      ? row.request_status === 'awaiting_code' && new Date() > new Date(row.starts_at)
        ? 'gone'
        : row.request_status
      : row.stay_status === 'held'
        ? 'held'
        : row.stay_status === 'cancelled'
          ? 'cancelled'
          : 'confirmed';
  return {
    id: row.id,
    status,
    paid: row.paid,
    refunded: row.refunded,
    holdExpiresAt: status === 'held' && row.hold_expires_at ? new Date(row.hold_expires_at).toISOString() : null,
    paymentUrl: status === 'held' ? row.checkout_url : null,
    roomTypeName: row.room_type_name,
    startsAt: new Date(row.starts_at).toISOString(),
    endsAt: new Date(row.ends_at).toISOString(),
    amountCents: row.amount_cents,
    currency: row.currency,
    payment: row.payment_mode,
  };
}

/**
 * Deletes booking requests that never became a booking, a day after their code expired, tenant by tenant (the
 * worker's hourly `sweep_booking_requests`): a guest's details typed on the site are not kept.
 */
export async function sweepBookingRequests(): Promise<number> {
  const tenants = await serviceStatement(
    statement<{ tenant_id: string }>(
      `select distinct tenant_id from booking_requests where status <> 'confirmed' and code_expires_at < now() - interval '1 day'`,
    ),
    [],
  );
  let swept = 0;
  for (const { tenant_id: tenantId } of tenants) {
    const [rows] = await runStatements({ role: 'app_service', tenantId }, [
      statement<{ swept: number }>(`select app_sweep_booking_requests(${sqlLiteral(tenantId, 'uuid')}) as swept`),
    ]);
    swept += rows[0]?.swept ?? 0;
  }
  return swept;
}
