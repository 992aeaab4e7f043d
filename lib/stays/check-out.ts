import type { Actor } from '../audit/actor';
import type { ReservationView } from '../bookings/reservation-view';
import { sqlLiteral } from '../db/tx';
import { actorArguments, runStayChange } from './stay-change';

export const KEY_REASON_CHECKED_OUT = 'checked_out';

/**
 * Checks a stay out in one transaction (SQL `check_out_reservation`): status `checked_out`, its
 * live keys revoked (`checked_out`, their codes leave every door through the outbox), audited
 * `checkout.completed` once. Again → the same reservation, nothing written; a stay never checked
 * in → `reservation_not_ready`.
 */
export async function checkOutReservation({
  tenantId,
  reservationId,
  actor,
}: {
  tenantId: string;
  reservationId: string;
  actor: Actor;
}): Promise<ReservationView> {
  return runStayChange(
    { tenantId, reservationId },
    `check_out_reservation(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(reservationId, 'uuid')}, ${actorArguments(actor)})`,
  );
}
