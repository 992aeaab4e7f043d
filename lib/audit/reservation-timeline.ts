import { withTenant } from '../db/tx';
import { toAuditEventView } from './list-audit-events';
import { readableAuditEvents, type ReadableAuditEvent } from './readable-audit-events';

/** Most rows one reservation's timeline shows; a stay produces a handful, so this is a safety net. */
export const TIMELINE_LIMIT = 200;

/** A door opened remotely from the desk: the audit row that carries who asked and why. */
export const REMOTE_UNLOCK_ACTION = 'door.unlocked_remotely';

/**
 * The audit events of one reservation and of its access keys (subject is the reservation or one of
 * its keys), and the remote unlocks of its room's own door while the stay held the room (from its
 * start, or its check-in when earlier, to its end: the reason the desk gave), oldest first, each
 * naming its room and guest, door and provider event. A reservation of another tenant yields no rows.
 */
export async function reservationTimeline({
  tenantId,
  reservationId,
}: {
  tenantId: string;
  reservationId: string;
}): Promise<ReadableAuditEvent[]> {
  return withTenant({ tenantId }, async (tx) => {
    const [keys, stays] = await Promise.all([
      tx.accessKey.findMany({ where: { tenantId, reservationId }, select: { id: true } }),
      tx.reservation.findMany({
        where: { tenantId, id: reservationId },
        select: {
          startsAt: true,
          endsAt: true,
          checkIn: { select: { createdAt: true } },
          room: { select: { roomLocks: { where: { role: 'room' }, select: { lockId: true } } } },
        },
      }),
    ]);
    const stay = stays.length === 1 ? stays[0]! : null;
    const doors = stay?.room.roomLocks.map((d) => d.lockId) ?? [];
    const from =
      stay && stay.checkIn && stay.checkIn.createdAt < stay.startsAt ? stay.checkIn.createdAt : stay?.startsAt;
    const rows = await tx.auditEvent.findMany({
      where: {
        tenantId,
        OR: [
          { subjectId: { in: [reservationId, ...keys.map((k) => k.id)] } },
          ...(stay && doors.length > 0
            ? [
                {
                  action: REMOTE_UNLOCK_ACTION,
                  subjectId: { in: doors },
                  occurredAt: { gte: from, lt: stay.endsAt },
                },
              ]
            : []),
        ],
      },
      orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }],
      take: TIMELINE_LIMIT,
    });
    return readableAuditEvents(tx, tenantId, rows.map(toAuditEventView));
  });
}
