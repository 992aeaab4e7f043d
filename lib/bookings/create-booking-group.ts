import { createHash, randomUUID } from 'node:crypto';
import type { Actor } from '../audit/actor';
import { guestTokenFor, hashGuestToken } from '../auth/guest-links';
import { asService, type Tx } from '../db/tx';
import type { ReservationSource } from '../db/generated/enums';
import { assertBookingRules } from './booking-rules';

export type BookingItem = { roomId: string; startsAt: Date; endsAt: Date };

export type CreateBookingGroupInput = {
  tenantId: string;
  actor: Actor;
  guest: { name: string; email?: string | null; phone?: string | null };
  reservations: BookingItem[];
  source: ReservationSource;
  preIssueKeys?: boolean;
  planName?: string | null;
  paymentIntentId?: string | null;
  /** What the attached PaymentIntent charges, as Stripe says (checked again when it succeeds). */
  amount?: { amountCents: number; currency: string } | null;
  externalRef?: string | null;
  externalUpdatedAt?: Date | null;
};

export type CreatedBookingGroup = {
  id: string;
  guestId: string;
  reservations: { id: string; roomId: string; guestLinkToken: string }[];
};

/** A pseudonymous, stable reference to a guest, kept on reservations after the guest is deleted. */
export function guestRef(guestId: string): string {
  return `guest_${createHash('sha256').update(guestId).digest('hex').slice(0, 12)}`;
}

/**
 * Holds every reservation of a booking group or none, in one transaction (SQL `reserve_booking_group`):
 * the guest, the group, the reservations with their snapshots, a guest link each, the audit rows and
 * (by default) a pre-issued key each. A taken room fails the whole group with `room_unavailable`
 * naming every room that failed; an intent already attached to another of the tenant's groups with `payment_intent_in_use`;
 * an hourly facility's room outside its opening hours or not on whole hours with `invalid_request` (lib/bookings/booking-rules.ts).
 */
export async function createBookingGroup(input: CreateBookingGroupInput): Promise<CreatedBookingGroup> {
  return asService({ tenantId: input.tenantId }, async (tx) => {
    // The desk's and the API's bookings keep an hourly facility's hours; a provider's (webhooks,
    // holdBookingGroup directly) is taken as the provider booked it.
    await assertBookingRules(tx, input.tenantId, input.reservations);
    return holdBookingGroup(tx, input);
  });
}

/** `createBookingGroup` inside a transaction the caller holds (scoped to `input.tenantId`). */
export async function holdBookingGroup(tx: Tx, input: CreateBookingGroupInput): Promise<CreatedBookingGroup> {
  const { tenantId, actor } = input;
  const items = input.reservations.map((item) => {
    const linkId = randomUUID();
    const token = guestTokenFor(linkId);
    return {
      roomId: item.roomId,
      startsAt: item.startsAt.toISOString(),
      endsAt: item.endsAt.toISOString(),
      linkId,
      token,
      tokenHash: Buffer.from(hashGuestToken(token)).toString('hex'),
    };
  });
  const guest = await tx.guest.create({
    data: { tenantId, name: input.guest.name, email: input.guest.email ?? null, phone: input.guest.phone ?? null },
    select: { id: true },
  });
  const group = await tx.bookingGroup.create({
    data: {
      tenantId,
      paymentIntentId: input.paymentIntentId ?? null,
      amountCents: input.amount?.amountCents ?? null,
      currency: input.amount?.currency ?? null,
    },
    select: { id: true },
  });
  const payload = JSON.stringify(items.map(({ token: _token, ...rest }) => rest));
  const rows = await tx.$queryRaw<{ reservation_id: string; room_id: string }[]>`select * from reserve_booking_group(
    ${tenantId}::uuid, ${group.id}::uuid, ${guest.id}::uuid, ${payload}::jsonb, ${input.source}::reservation_source,
    ${input.planName ?? null}, ${input.externalRef ?? null}, ${input.externalUpdatedAt ?? null}::timestamptz, ${input.preIssueKeys !== false},
    ${actor.type}::actor_type, ${actor.id}, ${actor.label})`;
  return {
    id: group.id,
    guestId: guest.id,
    reservations: rows.map((row, i) => ({
      id: row.reservation_id,
      roomId: row.room_id,
      guestLinkToken: items[i]!.token,
    })),
  };
}
