import type { Actor } from '../audit/actor';
import type { ReservationView } from '../bookings/reservation-view';
import { sqlLiteral } from '../db/tx';
import { actorArguments, runStayChange } from './stay-change';

export const KEY_REASON_ROOM_MOVED = 'room_moved';

/**
 * Moves a stay to another room of the tenant in one transaction (SQL `move_reservation`): the
 * exclusion constraint refuses a taken room (`room_unavailable`), an archived room is refused, and
 * another tenant's room is `not_found`. The old room's live keys are revoked (`room_moved`), a key
 * in the same state comes for the new room with a new PIN, the doors' commands go through the
 * outbox, audited `reservation.moved` once. Moving to the room it is in changes nothing.
 */
export async function moveReservation({
  tenantId,
  reservationId,
  roomId,
  reason,
  actor,
}: {
  tenantId: string;
  reservationId: string;
  roomId: string;
  reason: string;
  actor: Actor;
}): Promise<ReservationView> {
  return runStayChange(
    { tenantId, reservationId },
    `move_reservation(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(reservationId, 'uuid')}, ${sqlLiteral(roomId, 'uuid')},
      ${sqlLiteral(reason, 'text')}, ${actorArguments(actor)})`,
  );
}
