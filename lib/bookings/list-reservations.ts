import { withTenant } from '../db/tx';
import { decodeCursor, encodeCursor } from '../api/cursor';
import { AppError } from '../errors';
import type { ReservationStatus } from '../db/generated/enums';
import { RESERVATION_INCLUDE, toReservationView, type ReservationView } from './reservation-view';

/**
 * A tenant's reservations overlapping `[from, to)`, by start then id, one page at a time
 * (keyset cursor, so pages stay stable while rows are added).
 */
export async function listReservations(input: {
  tenantId: string;
  from?: Date;
  to?: Date;
  roomId?: string;
  status?: ReservationStatus;
  limit: number;
  cursor?: string;
}): Promise<{ data: ReservationView[]; nextCursor: string | null }> {
  const { tenantId } = input;
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.reservation.findMany({
      where: {
        tenantId,
        ...(input.roomId ? { roomId: input.roomId } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.to ? { startsAt: { lt: input.to } } : {}),
        ...(input.from ? { endsAt: { gt: input.from } } : {}),
        ...(after ? { OR: [{ startsAt: { gt: after.at } }, { startsAt: after.at, id: { gt: after.id } }] } : {}),
      },
      include: RESERVATION_INCLUDE,
      orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
      take: input.limit + 1,
    }),
  );
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map(toReservationView),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.startsAt, last.id) : null,
  };
}

/** One reservation of a tenant; `not_found` for any other id. */
export async function getReservation({
  tenantId,
  reservationId,
}: {
  tenantId: string;
  reservationId: string;
}): Promise<ReservationView> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.reservation.findMany({ where: { tenantId, id: reservationId }, include: RESERVATION_INCLUDE }),
  );
  if (rows.length !== 1) throw new AppError('not_found', 'No such reservation.');
  return toReservationView(rows[0]!);
}
