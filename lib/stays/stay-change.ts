import { loadReservationViews, type ReservationView } from '../bookings/reservation-view';
import { asService, type Tx } from '../db/tx';
import { AppError } from '../errors';

/**
 * Runs one stay change — a SQL function that locks the reservation, writes the change, its audit
 * rows and its lock commands (outbox) — and reads the reservation back, all in one transaction as
 * the service role confined to the tenant. Another tenant's id is `not_found` and writes nothing.
 */
export async function runStayChange(
  { tenantId, reservationId }: { tenantId: string; reservationId: string },
  change: (tx: Tx) => Promise<unknown>,
): Promise<ReservationView> {
  return asService({ tenantId }, async (tx) => {
    await change(tx);
    const views = await loadReservationViews(tx, tenantId, [reservationId]);
    if (views.length !== 1) throw new AppError('not_found', 'No such reservation.');
    return views[0]!;
  });
}
