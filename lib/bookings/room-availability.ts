import type { BookingUnit } from '../db/generated/enums';
import { runInTransaction, sqlLiteral, statement, withTenant } from '../db/tx';

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

/** Every room of a tenant that is not archived, with its rate and whether it is free for all of `[startsAt, endsAt)` (room_holds). */
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
    // Taken where another stay holds the room (its dates, a checked-in guest's key, an offline code:
    // room_holds); a pre-issued key's lead yields to a booking and does not count.
    const [busy] = await runInTransaction(tx, [
      statement<{ room_id: string }>(`select distinct room_id from room_holds
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and not soft and during && tstzrange(${sqlLiteral(startsAt, 'timestamptz')},
          ${sqlLiteral(endsAt, 'timestamptz')}, '[)')`),
    ]);
    const taken = new Set(busy.map((b) => b.room_id));
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
