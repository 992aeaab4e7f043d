import { withTenant } from '../db/tx';
import { DELETED_GUEST_DISPLAY, groupStatus, type GroupStatus } from './reservation-view';

export type BookingGroupSummary = {
  id: string;
  createdAt: Date;
  status: GroupStatus;
  paymentIntentId: string | null;
  amountCents: number | null;
  currency: string | null;
  /** The guest's name, or null once the guest is deleted (show the tombstone). */
  guestName: string | null;
  /** `timeZone`: the IANA zone of the room's facility, for showing the stay in local time. */
  reservations: {
    id: string;
    roomLabel: string;
    startsAt: Date;
    endsAt: Date;
    status: string;
    paid: boolean;
    timeZone: string;
  }[];
};

export { DELETED_GUEST_DISPLAY };

/** A tenant's booking groups, newest first, with their reservations and payment state. */
export async function listBookingGroups({
  tenantId,
  limit = 50,
}: {
  tenantId: string;
  limit?: number;
}): Promise<BookingGroupSummary[]> {
  const groups = await withTenant({ tenantId }, (tx) =>
    tx.bookingGroup.findMany({
      where: { tenantId },
      include: {
        reservations: {
          include: {
            guest: { select: { name: true } },
            room: { select: { facility: { select: { timeZone: true } } } },
          },
          orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
        },
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: limit,
    }),
  );
  return groups.map((g) => ({
    id: g.id,
    createdAt: g.createdAt,
    status: groupStatus(g.reservations),
    paymentIntentId: g.paymentIntentId,
    amountCents: g.amountCents,
    currency: g.currency,
    guestName: g.reservations.find((r) => r.guest)?.guest?.name ?? null,
    reservations: g.reservations.map((r) => ({
      id: r.id,
      roomLabel: r.roomLabelSnapshot,
      startsAt: r.startsAt,
      endsAt: r.endsAt,
      status: r.status,
      paid: r.paidAt !== null && r.refundedAt === null,
      timeZone: r.room.facility.timeZone,
    })),
  }));
}
