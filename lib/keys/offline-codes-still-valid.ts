import { withTenant } from '../db/tx';

export type OfflineCodeStillValid = {
  keyId: string;
  reservationId: string;
  issuedAt: Date;
  /** The key's end: until then its lock accepts the code, whatever we recorded. */
  until: Date;
  /** The locks it still opens, by name. */
  locks: string[];
  /** The facility's IANA zone. */
  timeZone: string;
};

/**
 * The ended keys of a tenant's reservations whose offline code a lock still accepts (a door
 * `valid_until_end`, before the key's end): revoked here, not on the lock — for the desk's lists,
 * which then do not say a superseded code is gone. Never a PIN.
 */
export async function offlineCodesStillValid({
  tenantId,
  userId,
  reservationIds,
  now = new Date(),
}: {
  tenantId: string;
  userId?: string | null;
  reservationIds: string[];
  now?: Date;
}): Promise<OfflineCodeStillValid[]> {
  if (reservationIds.length === 0) return [];
  const keys = await withTenant({ tenantId, userId }, (tx) =>
    tx.accessKey.findMany({
      where: {
        tenantId,
        reservationId: { in: reservationIds },
        status: { in: ['revoked', 'expired'] },
        expiresAt: { gt: now },
        doors: { some: { state: 'valid_until_end' } },
      },
      select: {
        id: true,
        reservationId: true,
        createdAt: true,
        expiresAt: true,
        room: { select: { facility: { select: { timeZone: true } } } },
        doors: {
          where: { state: 'valid_until_end' },
          select: { lock: { select: { name: true } } },
          orderBy: { lockId: 'asc' },
        },
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
  );
  return keys.map((key) => ({
    keyId: key.id,
    // Selected by reservation id above: never a staff code's null.
    reservationId: key.reservationId!,
    issuedAt: key.createdAt,
    until: key.expiresAt,
    locks: key.doors.map((d) => d.lock.name),
    timeZone: key.room.facility.timeZone,
  }));
}
