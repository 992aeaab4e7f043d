import { withTenant } from '../db/tx';

export type LiveKey = {
  id: string;
  reservationId: string;
  status: 'pre_issued' | 'active';
  vendorSync: 'pending' | 'synced' | 'failed';
  vendorError: string | null;
};

/** The newest live (pre-issued or active) key of each of a tenant's reservations, for the desk's lists; the PIN is not read. */
export async function liveKeysOf({
  tenantId,
  userId,
  reservationIds,
}: {
  tenantId: string;
  userId?: string | null;
  reservationIds: string[];
}): Promise<Map<string, LiveKey>> {
  if (reservationIds.length === 0) return new Map();
  const keys = await withTenant({ tenantId, userId }, (tx) =>
    tx.accessKey.findMany({
      where: { tenantId, reservationId: { in: reservationIds }, status: { in: ['pre_issued', 'active'] } },
      select: { id: true, reservationId: true, status: true, vendorSync: true, vendorError: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    }),
  );
  const byReservation = new Map<string, LiveKey>();
  for (const { reservationId, ...key } of keys) {
    // Staff codes have no reservation; the filter above never returns one.
    if (!reservationId || byReservation.has(reservationId)) continue;
    if (key.status === 'pre_issued' || key.status === 'active')
      byReservation.set(reservationId, { ...key, reservationId, status: key.status });
  }
  return byReservation;
}
