import { withTenant } from '../db/tx';
import { toAuditEventView } from './list-audit-events';
import { readableAuditEvents, type ReadableAuditEvent } from './readable-audit-events';

/** Most rows one reservation's timeline shows; a stay produces a handful, so this is a safety net. */
export const TIMELINE_LIMIT = 200;

/**
 * The audit events of one reservation and of its access keys (subject is the reservation or one of
 * its keys), oldest first, each naming its room and guest, door and provider event. A reservation of
 * another tenant yields no rows.
 */
export async function reservationTimeline({
  tenantId,
  reservationId,
}: {
  tenantId: string;
  reservationId: string;
}): Promise<ReadableAuditEvent[]> {
  return withTenant({ tenantId }, async (tx) => {
    const keys = await tx.accessKey.findMany({ where: { tenantId, reservationId }, select: { id: true } });
    const rows = await tx.auditEvent.findMany({
      where: { tenantId, subjectId: { in: [reservationId, ...keys.map((k) => k.id)] } },
      orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }],
      take: TIMELINE_LIMIT,
    });
    return readableAuditEvents(tx, tenantId, rows.map(toAuditEventView));
  });
}
