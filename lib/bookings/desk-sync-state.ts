import { createHash } from 'node:crypto';
import { withTenant } from '../db/tx';

/** How many reservations one poll may watch. */
export const MAX_WATCHED = 200;

export type DeskSyncState = {
  /** Live keys of these reservations whose doors have not all confirmed (or failed) yet. */
  pending: number;
  /** Changes whenever a watched reservation, one of its keys or one of their doors changes. */
  fingerprint: string;
};

/**
 * What an open desk screen polls: whether any key of `reservationIds` (the tenant's only; other ids
 * are ignored) is still waiting for its lock, and a fingerprint of their state, so the screen
 * reloads its data only when something changed.
 */
export async function deskSyncState({
  tenantId,
  userId,
  reservationIds,
}: {
  tenantId: string;
  userId?: string;
  reservationIds: string[];
}): Promise<DeskSyncState> {
  const ids = [...new Set(reservationIds)].slice(0, MAX_WATCHED);
  const rows = await withTenant({ tenantId, userId }, (tx) =>
    tx.reservation.findMany({
      where: { tenantId, id: { in: ids } },
      select: {
        id: true,
        status: true,
        roomId: true,
        startsAt: true,
        endsAt: true,
        accessKeys: {
          select: {
            id: true,
            status: true,
            vendorSync: true,
            updatedAt: true,
            doors: { select: { lockId: true, state: true, updatedAt: true }, orderBy: { lockId: 'asc' } },
          },
          orderBy: { id: 'asc' },
        },
      },
      orderBy: { id: 'asc' },
    }),
  );
  const pending = rows
    .flatMap((r) => r.accessKeys)
    .filter((k) => (k.status === 'pre_issued' || k.status === 'active') && k.vendorSync === 'pending').length;
  return { pending, fingerprint: createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 32) };
}
