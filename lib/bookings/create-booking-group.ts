import { createHash, randomUUID } from 'node:crypto';
import type { Actor } from '../audit/actor';
import { guestTokenFor, hashGuestToken } from '../auth/guest-links';
import { scopedQuery, sqlLiteral, type Tx } from '../db/tx';
import type { ReservationSource } from '../db/generated/enums';
import { assertBookingRules, facilitiesOfRoomsSql, type FacilityOfRoom } from './booking-rules';

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
 * Holds every reservation of a booking group or none, in one transaction and one round trip (SQL
 * `reserve_booking_group` through `scopedQuery`), after one read for the hourly rules:
 * the guest, the group, the reservations with their snapshots, a guest link each, the audit rows and
 * (by default) a pre-issued key each. A taken room fails the whole group with `room_unavailable`
 * naming every room that failed; an intent already attached to another of the tenant's groups with `payment_intent_in_use`;
 * an hourly facility's room outside its opening hours or not on whole hours with `invalid_request` (lib/bookings/booking-rules.ts).
 */
export async function createBookingGroup(input: CreateBookingGroupInput): Promise<CreatedBookingGroup> {
  const { tenantId } = input;
  const scope = { role: 'app_service' as const, tenantId };
  // The desk's and the API's bookings keep an hourly facility's hours; a provider's (webhooks,
  // holdBookingGroup directly) is taken as the provider booked it. Read apart from the hold, as it
  // was read inside it: nothing locks a facility's hours either way.
  const [facilities] = await scopedQuery<FacilityOfRoom>(scope, [facilitiesOfRoomsSql(tenantId, input.reservations)]);
  assertBookingRules(facilities ?? [], input.reservations);
  // The hold in one round trip: its statements as one implicit transaction.
  const hold = holdStatements(input);
  const [, , rows] = await scopedQuery<HeldRow>(scope, hold.statements);
  return createdGroup(hold, rows ?? []);
}

type HeldRow = { reservation_id: string; room_id: string };

/**
 * The hold of a group as SQL: the guest, the group (ids made here) and reserve_booking_group, whose
 * rows come from the third statement; values as typed literals.
 */
function holdStatements(input: CreateBookingGroupInput) {
  const { tenantId, actor } = input;
  const items = linkedItems(input);
  const guestId = randomUUID();
  const groupId = randomUUID();
  const uuid = (value: string) => sqlLiteral(value, 'uuid');
  const text = (value: string | null | undefined) => sqlLiteral(value ?? null, 'text');
  const statements = [
    `insert into guests (tenant_id, id, name, email, phone)
     values (${uuid(tenantId)}, ${uuid(guestId)}, ${text(input.guest.name)}, ${text(input.guest.email)},
             ${text(input.guest.phone)})`,
    `insert into booking_groups (tenant_id, id, payment_intent_id, amount_cents, currency)
     values (${uuid(tenantId)}, ${uuid(groupId)}, ${text(input.paymentIntentId)},
             ${sqlLiteral(input.amount?.amountCents ?? null, 'int')}, ${text(input.amount?.currency)})`,
    `select reservation_id, room_id from reserve_booking_group(${uuid(tenantId)}, ${uuid(groupId)}, ${uuid(guestId)},
       ${sqlLiteral(payloadOf(items), 'jsonb')}, ${sqlLiteral(input.source, 'reservation_source')},
       ${text(input.planName)}, ${text(input.externalRef)}, ${sqlLiteral(input.externalUpdatedAt ?? null, 'timestamptz')},
       ${sqlLiteral(input.preIssueKeys !== false, 'boolean')}, ${sqlLiteral(actor.type, 'actor_type')},
       ${text(actor.id)}, ${text(actor.label)})`,
  ];
  return { guestId, groupId, items, statements };
}

type LinkedItem = {
  roomId: string;
  startsAt: string;
  endsAt: string;
  linkId: string;
  token: string;
  tokenHash: string;
};

/** Each reservation to hold with its guest link: the id and token made here, only the token's hash stored. */
function linkedItems(input: CreateBookingGroupInput): LinkedItem[] {
  return input.reservations.map((item) => {
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
}

/** reserve_booking_group's items: everything but the tokens, which never reach the database. */
const payloadOf = (items: LinkedItem[]) => JSON.stringify(items.map(({ token: _token, ...rest }) => rest));

function createdGroup(hold: ReturnType<typeof holdStatements>, rows: HeldRow[]): CreatedBookingGroup {
  return {
    id: hold.groupId,
    guestId: hold.guestId,
    reservations: rows.map((row, i) => ({
      id: row.reservation_id,
      roomId: row.room_id,
      guestLinkToken: hold.items[i]!.token,
    })),
  };
}

/** `createBookingGroup` inside a transaction the caller holds (scoped to `input.tenantId`), without the hourly rules. */
export async function holdBookingGroup(tx: Tx, input: CreateBookingGroupInput): Promise<CreatedBookingGroup> {
  const hold = holdStatements(input);
  let rows: HeldRow[] = [];
  for (const statement of hold.statements) rows = await tx.$queryRawUnsafe<HeldRow[]>(statement);
  return createdGroup(hold, rows);
}
