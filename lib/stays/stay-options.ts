import { runInTransaction, sqlArray, sqlLiteral, statement, withTenant } from '../db/tx';

export type FreeRoom = { id: string; label: string };

/**
 * The rooms a stay could move to, read as the tenant's staff: the other rooms of its facility, not
 * archived, that no other stay holds over it (from now on when the guest is already in; room_holds).
 * The database still decides (the exclusion constraint): this list only spares the desk a refusal.
 */
export async function freeRoomsForMove({
  tenantId,
  userId,
  reservationId,
  now = new Date(),
}: {
  tenantId: string;
  userId?: string | null;
  reservationId: string;
  now?: Date;
}): Promise<FreeRoom[]> {
  return withTenant({ tenantId, userId }, async (tx) => {
    const stays = await tx.reservation.findMany({
      where: { tenantId, id: reservationId },
      select: { roomId: true, startsAt: true, endsAt: true, status: true, room: { select: { facilityId: true } } },
    });
    if (stays.length !== 1) return [];
    const stay = stays[0]!;
    const from = stay.status === 'checked_in' && now < stay.startsAt ? now : stay.startsAt;
    const rooms = await tx.room.findMany({
      where: { tenantId, facilityId: stay.room.facilityId, archivedAt: null, id: { not: stay.roomId } },
      select: { id: true, label: true },
      orderBy: { label: 'asc' },
    });
    // Held by another stay (its dates, a checked-in guest's key, an offline code) over the span: room_holds.
    const [held] = await runInTransaction(tx, [
      statement<{ room_id: string }>(`select distinct room_id from room_holds
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and reservation_id <> ${sqlLiteral(reservationId, 'uuid')}
        and not soft
        and room_id = any(${sqlArray(
          rooms.map((r) => r.id),
          'uuid',
        )})
        and during && tstzrange(${sqlLiteral(from, 'timestamptz')}, ${sqlLiteral(stay.endsAt, 'timestamptz')}, '[)')`),
    ]);
    const taken = new Set(held.map((h) => h.room_id));
    return rooms.filter((room) => !taken.has(room.id));
  });
}

/** A stay's bounds and its facility's IANA zone, read as the tenant's staff; null for another tenant's id. */
export async function stayBounds({
  tenantId,
  reservationId,
}: {
  tenantId: string;
  reservationId: string;
}): Promise<{ timeZone: string; startsAt: Date; endsAt: Date } | null> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.reservation.findMany({
      where: { tenantId, id: reservationId },
      select: { startsAt: true, endsAt: true, room: { select: { facility: { select: { timeZone: true } } } } },
    }),
  );
  if (rows.length !== 1) return null;
  const stay = rows[0]!;
  return { timeZone: stay.room.facility.timeZone, startsAt: stay.startsAt, endsAt: stay.endsAt };
}
