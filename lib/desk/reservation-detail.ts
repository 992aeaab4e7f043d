import { withTenant } from '../db/tx';

/**
 * One reservation of a tenant as the desk shows it — stay, facility, guest, check-in, every key
 * (never a PIN) and the live guest link — read as the tenant's staff; null for anything but exactly
 * one row (another tenant's id included).
 */
export async function reservationDetail({
  tenantId,
  userId,
  reservationId,
  now = new Date(),
}: {
  tenantId: string;
  userId?: string | null;
  reservationId: string;
  now?: Date;
}) {
  const rows = await withTenant({ tenantId, userId }, (tx) =>
    tx.reservation.findMany({
      where: { tenantId, id: reservationId },
      select: {
        id: true,
        roomId: true,
        status: true,
        startsAt: true,
        endsAt: true,
        roomLabelSnapshot: true,
        planNameSnapshot: true,
        arrivedAt: true,
        room: { select: { facility: { select: { name: true, timeZone: true } } } },
        guest: { select: { id: true, name: true, email: true, phone: true } },
        checkIn: { select: { createdAt: true } },
        accessKeys: {
          select: {
            id: true,
            status: true,
            vendorSync: true,
            vendorError: true,
            validFrom: true,
            expiresAt: true,
            revokedReason: true,
            revokedAt: true,
            createdAt: true,
            kind: true,
            backupFor: true,
            // Where its code stands on each door: the desk sees which lock lacks it, and an offline
            // code that stays valid on its lock after being revoked here.
            doors: {
              select: {
                state: true,
                offline: true,
                error: true,
                setAt: true,
                removedAt: true,
                // A stay's new dates on their way to this door's code, or refused by the lock (issue 28, 11 b).
                rewindow: true,
                rewindowError: true,
                // The lock's own state, for the desk's lock problem in words (issue 28, 11 f).
                lock: {
                  select: { id: true, name: true, online: true, offlineReason: true, supportsBackupCodes: true },
                },
              },
              orderBy: { lockId: 'asc' },
            },
          },
          orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
        },
        guestLinks: {
          where: { tenantId, endedAt: null, expiresAt: { gt: now } },
          select: { id: true, expiresAt: true },
          orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
        },
      },
    }),
  );
  return rows.length === 1 ? rows[0]! : null;
}

export type ReservationDetail = NonNullable<Awaited<ReturnType<typeof reservationDetail>>>;
