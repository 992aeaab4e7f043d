import type { Actor } from '../audit/actor';
import { reservationViewsByIdStatement, type ReservationView } from '../bookings/reservation-view';
import { effectStatement, runStatements, sqlLiteral } from '../db/tx';
import { AppError } from '../errors';

/** The actor's three arguments of a stay change's SQL function (`p_actor_type, p_actor_id, p_actor_label`). */
export function actorArguments(actor: Actor): string {
  return `${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')}`;
}

/**
 * Runs one stay change — `call`, a SQL function that locks the reservation, writes the change, its
 * audit rows and its lock commands (outbox) — and reads the reservation back, as one transaction in
 * one round trip (`runStatements`) as the service role confined to the tenant (decision 018). Another
 * tenant's id is `not_found` and writes nothing.
 */
export async function runStayChange(
  { tenantId, reservationId }: { tenantId: string; reservationId: string },
  call: string,
): Promise<ReservationView> {
  const [, views] = await runStatements({ role: 'app_service', tenantId }, [
    effectStatement(`select id from ${call}`),
    reservationViewsByIdStatement(tenantId, [reservationId]),
  ]);
  if (views.length !== 1) throw new AppError('not_found', 'No such reservation.');
  return views[0]!;
}
