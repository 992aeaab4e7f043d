import type { Actor } from '../audit/actor';
import { asService, effectStatement, runInTransaction, sqlLiteral } from '../db/tx';

export const KEY_REASON_RESERVATION_CANCELLED = 'reservation_cancelled';

/**
 * Cancels a tenant's reservation: frees the room and revokes its live keys, audited, in one
 * transaction (SQL `cancel_reservation`). Cancelling again changes nothing.
 */
export async function cancelReservation(input: {
  tenantId: string;
  reservationId: string;
  reason: string;
  actor: Actor;
  keyReason?: string;
}): Promise<{ id: string; status: 'cancelled' }> {
  const { tenantId, reservationId, actor } = input;
  await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      effectStatement(`select id from cancel_reservation(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(reservationId, 'uuid')}, ${sqlLiteral(input.reason, 'text')},
      ${sqlLiteral(input.keyReason ?? KEY_REASON_RESERVATION_CANCELLED, 'text')},
      ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
    ]),
  );
  return { id: reservationId, status: 'cancelled' };
}

/** Cancels every reservation of a booking group (each freed and its keys revoked), in one transaction. */
export async function cancelBookingGroup(input: {
  tenantId: string;
  bookingGroupId: string;
  reason: string;
  actor: Actor;
}): Promise<{ id: string; cancelled: number }> {
  const { tenantId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const reservations = await tx.reservation.findMany({
      where: { tenantId, bookingGroupId: input.bookingGroupId },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    for (const r of reservations) {
      await runInTransaction(tx, [
        effectStatement(`select id from cancel_reservation(${sqlLiteral(tenantId, 'uuid')},
          ${sqlLiteral(r.id, 'uuid')}, ${sqlLiteral(input.reason, 'text')},
        ${sqlLiteral(KEY_REASON_RESERVATION_CANCELLED, 'text')}, ${sqlLiteral(actor.type, 'actor_type')},
        ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
      ]);
    }
    return { id: input.bookingGroupId, cancelled: reservations.length };
  });
}
