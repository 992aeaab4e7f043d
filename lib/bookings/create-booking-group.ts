import { createHash, randomUUID } from 'node:crypto';
import type { Actor } from '../audit/actor';
import { guestTokenFor, hashGuestToken } from '../auth/guest-links';
import { runStatements, statement, sqlLiteral } from '../db/tx';
import type { ReservationSource } from '../db/generated/enums';
import { LOCALES, type Locale } from '../i18n/locales';
import { assertBookingRules, facilitiesOfRoomsSql, type BookingItem, type FacilityOfRoom } from './booking-rules';

export type { BookingItem };

/** The language a guest's mails are written in (one of the app's locales). */
export type GuestLocale = Locale;

/** A language tag a provider sends (`en-GB`, `ja`, `fr`) as one of ours, else null. */
export function guestLocaleOf(tag: string | null | undefined): GuestLocale | null {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale === language) ?? null;
}

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
  /** The guest's language for their mails; absent: the facility's default language. */
  locale?: GuestLocale | null;
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
 * `app_hold_booking_group` through `scopedQuery`), after one read for the hourly rules:
 * the guest, the group, the reservations with their snapshots, a guest link each, the audit rows and
 * (by default) a pre-issued key each. A taken room fails the whole group with `room_unavailable`
 * naming every room that failed; an intent already attached to another of the tenant's groups with `payment_intent_in_use`;
 * an hourly facility's room outside its opening hours or not on whole hours with `invalid_request` (lib/bookings/booking-rules.ts).
 */
export async function createBookingGroup(input: CreateBookingGroupInput): Promise<CreatedBookingGroup> {
  const { tenantId } = input;
  const scope = { role: 'app_service' as const, tenantId };
  // The desk's and the API's bookings keep an hourly facility's hours; a provider's
  // (app_create_provider_booking) is taken as the provider booked it. Read apart from the hold, as it
  // was read inside it: nothing locks a facility's hours either way.
  const [facilities] = await runStatements(scope, [
    statement<FacilityOfRoom>(facilitiesOfRoomsSql(tenantId, input.reservations)),
  ]);
  assertBookingRules(facilities ?? [], input.reservations);
  return holdBookingGroup(input);
}

/** `createBookingGroup` without the hourly rules: the hold alone, one statement in one round trip. */
export async function holdBookingGroup(input: CreateBookingGroupInput): Promise<CreatedBookingGroup> {
  const hold = holdOf(input);
  const [rows] = await runStatements({ role: 'app_service', tenantId: input.tenantId }, [
    statement<HeldRow>(hold.statement),
  ]);
  return {
    id: hold.groupId,
    guestId: hold.guestId,
    reservations: (rows ?? []).map((row, i) => ({
      id: row.reservation_id,
      roomId: row.room_id,
      guestLinkToken: hold.items[i]!.token,
    })),
  };
}

type HeldRow = { reservation_id: string; room_id: string };

/** The hold of a group as one call of app_hold_booking_group (ids made here), values as typed literals. */
function holdOf(input: CreateBookingGroupInput) {
  const { tenantId, actor } = input;
  const items = linkedItems(input.reservations, input.locale);
  const guestId = randomUUID();
  const groupId = randomUUID();
  const uuid = (value: string) => sqlLiteral(value, 'uuid');
  const text = (value: string | null | undefined) => sqlLiteral(value ?? null, 'text');
  const statement = `select reservation_id, room_id from app_hold_booking_group(${uuid(tenantId)}, ${uuid(groupId)},
       ${uuid(guestId)}, ${text(input.guest.name)}, ${text(input.guest.email)}, ${text(input.guest.phone)},
       ${text(input.paymentIntentId)}, ${sqlLiteral(input.amount?.amountCents ?? null, 'int')}, ${text(input.amount?.currency)},
       ${sqlLiteral(holdPayload(items), 'jsonb')}, ${sqlLiteral(input.source, 'reservation_source')},
       ${text(input.planName)}, ${text(input.externalRef)}, ${sqlLiteral(input.externalUpdatedAt ?? null, 'timestamptz')},
       ${sqlLiteral(input.preIssueKeys !== false, 'boolean')}, ${sqlLiteral(actor.type, 'actor_type')},
       ${text(actor.id)}, ${text(actor.label)})`;
  return { guestId, groupId, items, statement };
}

type LinkedItem = {
  /** Absent for a provider's booking: its booking source names the room, in SQL. */
  roomId?: string;
  startsAt: string;
  endsAt: string;
  linkId: string;
  token: string;
  tokenHash: string;
  locale?: GuestLocale;
};

/** Each reservation to hold with its guest link: the id and token made here, only the token's hash stored. */
export function linkedItems(
  reservations: (Omit<BookingItem, 'roomId'> & { roomId?: string })[],
  locale?: GuestLocale | null,
): LinkedItem[] {
  return reservations.map((item) => {
    const linkId = randomUUID();
    const token = guestTokenFor(linkId);
    return {
      roomId: item.roomId,
      startsAt: item.startsAt.toISOString(),
      endsAt: item.endsAt.toISOString(),
      linkId,
      token,
      tokenHash: Buffer.from(hashGuestToken(token)).toString('hex'),
      ...(locale ? { locale } : {}),
    };
  });
}

/** An item as reserve_booking_group takes it: everything but the token, which never reaches the database. */
export const storedItem = ({ token: _token, ...stored }: LinkedItem) => stored;

const holdPayload = (items: LinkedItem[]) => JSON.stringify(items.map(storedItem));
