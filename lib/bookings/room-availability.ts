import type { BookingUnit } from '../db/generated/enums';
import { withTenant } from '../db/tx';

export type RoomAvailability = {
  id: string;
  label: string;
  facilityId: string;
  facilityName: string;
  rateCents: number;
  currency: string;
  rateUnit: BookingUnit;
  rateName: string;
  available: boolean;
};

/** Every room of a tenant that is not archived, with its rate and whether it is free for all of `[startsAt, endsAt)`. */
export async function roomAvailability({
  tenantId,
  startsAt,
  endsAt,
}: {
  tenantId: string;
  startsAt: Date;
  endsAt: Date;
}): Promise<RoomAvailability[]> {
  return withTenant({ tenantId }, async (tx) => {
    const rooms = await tx.room.findMany({
      // An archived room takes no new stays (the database refuses them): the desk is not offered it.
      where: { tenantId, archivedAt: null },
      include: { facility: { select: { name: true } } },
      orderBy: [{ facilityId: 'asc' }, { label: 'asc' }],
    });
    const busy = await tx.reservation.findMany({
      where: { tenantId, status: { not: 'cancelled' }, startsAt: { lt: endsAt }, endsAt: { gt: startsAt } },
      select: { roomId: true },
    });
    const taken = new Set(busy.map((b) => b.roomId));
    return rooms.map((r) => ({
      id: r.id,
      label: r.label,
      facilityId: r.facilityId,
      facilityName: r.facility.name,
      rateCents: r.rateCents,
      currency: r.currency,
      rateUnit: r.rateUnit,
      rateName: r.rateName,
      available: !taken.has(r.id),
    }));
  });
}
