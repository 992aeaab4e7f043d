import { createHash } from 'node:crypto';
import { withTenant } from '../db/tx';

/** How many reservations one poll may watch. */
export const MAX_WATCHED = 200;

export type DeskSyncState = {
  /** Live keys of these reservations whose doors have not all confirmed (or failed) yet. */
  pending: number;
  /** Guest messages of these reservations still on their way to the mail server. */
  messagesOnTheWay: number;
  /** Changes whenever a watched reservation, one of its keys, their doors or its messages change. */
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
  const [rows, messages] = await withTenant({ tenantId, userId }, (tx) =>
    Promise.all([
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
      tx.message.findMany({
        where: { tenantId, reservationId: { in: ids } },
        select: { id: true, status: true, attempts: true, updatedAt: true },
        orderBy: { id: 'asc' },
      }),
    ]),
  );
  const pending = rows
    .flatMap((r) => r.accessKeys)
    .filter((k) => (k.status === 'pre_issued' || k.status === 'active') && k.vendorSync === 'pending').length;
  const messagesOnTheWay = messages.filter((m) => m.status === 'queued' || m.status === 'sending').length;
  return {
    pending,
    messagesOnTheWay,
    fingerprint: createHash('sha256')
      .update(JSON.stringify([rows, messages]))
      .digest('hex')
      .slice(0, 32),
  };
}
