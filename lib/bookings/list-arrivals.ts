import type { ReservationStatus } from '../db/generated/enums';
import { withTenant } from '../db/tx';
import { zonedDayBounds } from '../time/zoned-day';

export type Arrival = {
  id: string;
  roomLabel: string;
  guestName: string | null;
  startsAt: Date;
  endsAt: Date;
  status: ReservationStatus;
  timeZone: string;
};

/** Today's arrivals: a tenant's non-cancelled reservations that overlap today in their facility's time zone. */
export async function listArrivals({
  tenantId,
  userId,
  now = new Date(),
}: {
  tenantId: string;
  userId: string;
  now?: Date;
}): Promise<Arrival[]> {
  // Every time zone's "today" lies within a day and a half of now; each row is then checked against its own.
  const rows = await withTenant({ tenantId, userId }, (tx) =>
    tx.reservation.findMany({
      where: {
        tenantId,
        status: { not: 'cancelled' },
        startsAt: { lt: new Date(now.getTime() + 36 * 3_600_000) },
        endsAt: { gt: new Date(now.getTime() - 36 * 3_600_000) },
      },
      include: { guest: { select: { name: true } }, room: { select: { facility: { select: { timeZone: true } } } } },
      orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
    }),
  );
  return rows
    .filter((r) => {
      const { start, end } = zonedDayBounds(now, r.room.facility.timeZone);
      return r.startsAt < end && r.endsAt > start;
    })
    .map((r) => ({
      id: r.id,
      roomLabel: r.roomLabelSnapshot,
      guestName: r.guest?.name ?? null,
      startsAt: r.startsAt,
      endsAt: r.endsAt,
      status: r.status,
      timeZone: r.room.facility.timeZone,
    }));
}
