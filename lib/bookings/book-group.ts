import type { Actor } from '../audit/actor';
import { runStatements, statement, sqlArray, sqlLiteral } from '../db/tx';
import { createGroupPaymentIntent } from '../payments/create-group-payment-intent';
import { retrieveAttachedIntent } from '../payments/retrieve-attached-intent';
import { createBookingGroup, type BookingItem, type GuestLocale } from './create-booking-group';
import {
  fromReservationViewRow,
  groupStatus,
  reservationViewsSql,
  type GroupStatus,
  type ReservationView,
  type ReservationViewRow,
} from './reservation-view';
import type { ReservationSource } from '../db/generated/enums';

export type BookedGroup = {
  id: string;
  status: GroupStatus;
  paymentIntentId: string | null;
  reservations: ReservationView[];
};

/**
 * Books a group end to end: holds every room or none, then — outside the transaction, once the
 * hold has committed — creates its PaymentIntent unless the caller attached its own. An attached
 * intent is checked with Stripe first (it must be on the tenant's account) and its amount kept.
 */
export async function bookGroup(input: {
  tenantId: string;
  actor: Actor;
  guest: { name: string; email?: string | null; phone?: string | null };
  reservations: BookingItem[];
  preIssueKeys?: boolean;
  paymentIntentId?: string | null;
  source: ReservationSource;
  locale?: GuestLocale | null;
}): Promise<BookedGroup> {
  const attached = input.paymentIntentId
    ? await retrieveAttachedIntent({ tenantId: input.tenantId, paymentIntentId: input.paymentIntentId })
    : null;
  const created = await createBookingGroup({ ...input, amount: attached });
  const paymentIntentId =
    input.paymentIntentId ?? (await createGroupPaymentIntent({ tenantId: input.tenantId, bookingGroupId: created.id }));
  // What was held, as the caller shows it: one read in one round trip.
  const ids = created.reservations.map((r) => r.id);
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId }, [
    statement<ReservationViewRow>(
      reservationViewsSql([
        `r.tenant_id = ${sqlLiteral(input.tenantId, 'uuid')}`,
        `r.id = any(${sqlArray(ids, 'uuid')})`,
      ]),
    ),
  ]);
  const byId = new Map(rows!.map((row) => [row.id, row]));
  const held = ids.flatMap((id) => byId.get(id) ?? []);
  return {
    id: created.id,
    status: groupStatus(held),
    paymentIntentId,
    reservations: held.map(fromReservationViewRow),
  };
}
