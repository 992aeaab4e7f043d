import { withTenant } from '../db/tx';
import { AppError } from '../errors';
import { toKeyView, type KeyView } from './key-view';

/** Every key of one reservation of a tenant, newest first; `not_found` for another tenant's reservation. */
export async function listReservationKeys({
  tenantId,
  reservationId,
}: {
  tenantId: string;
  reservationId: string;
}): Promise<KeyView[]> {
  return withTenant({ tenantId }, async (tx) => {
    const reservations = await tx.reservation.findMany({
      where: { tenantId, id: reservationId },
      select: { id: true },
    });
    if (reservations.length !== 1) throw new AppError('not_found', 'No such reservation.');
    const keys = await tx.accessKey.findMany({
      where: { tenantId, reservationId },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    });
    return keys.map(toKeyView);
  });
}
