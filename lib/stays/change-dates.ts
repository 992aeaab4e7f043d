import type { Actor } from '../audit/actor';
import type { ReservationView } from '../bookings/reservation-view';
import { sqlLiteral } from '../db/tx';
import { actorArguments, runStayChange } from './stay-change';

/**
 * Extends or shortens a stay in one transaction (SQL `change_reservation_dates`): the reservation's
 * own row is written first, so the exclusion constraint refuses a clash (`room_unavailable`) before
 * any key moves; then its live keys' windows follow (a pre-issued key from the facility's lead, never
 * while another stay of the room runs), each audited `key.window_changed` with a job re-programming
 * every door; audited `reservation.changed` once. The same dates change nothing; a cancelled or
 * checked-out stay is `illegal_transition`.
 */
export async function changeReservationDates({
  tenantId,
  reservationId,
  startsAt,
  endsAt,
  actor,
}: {
  tenantId: string;
  reservationId: string;
  startsAt?: Date;
  endsAt?: Date;
  actor: Actor;
}): Promise<ReservationView> {
  return runStayChange(
    { tenantId, reservationId },
    `change_reservation_dates(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(reservationId, 'uuid')},
      ${sqlLiteral(startsAt ?? null, 'timestamptz')}, ${sqlLiteral(endsAt ?? null, 'timestamptz')}, ${actorArguments(actor)})`,
  );
}
