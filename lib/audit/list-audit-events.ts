import { decodeCursor, encodeCursor } from '../api/cursor';
import { withTenant } from '../db/tx';

export type AuditEventView = {
  id: string;
  occurredAt: string;
  actor: { type: string; id: string | null; label: string };
  action: string;
  subject: { type: string; id: string | null };
  reason: string | null;
  metadata: Record<string, unknown>;
};

/** A tenant's audit events, newest first, one keyset page at a time. */
export async function listAuditEvents(input: { tenantId: string; subjectId?: string; action?: string; limit: number; cursor?: string }): Promise<{ data: AuditEventView[]; nextCursor: string | null }> {
  const { tenantId } = input;
  const before = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.auditEvent.findMany({
      where: {
        tenantId,
        ...(input.subjectId ? { subjectId: input.subjectId } : {}),
        ...(input.action ? { action: input.action } : {}),
        ...(before ? { OR: [{ occurredAt: { lt: before.at } }, { occurredAt: before.at, id: { lt: before.id } }] } : {}),
      },
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      take: input.limit + 1,
    }),
  );
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map((e) => ({
      id: e.id,
      occurredAt: e.occurredAt.toISOString(),
      actor: { type: e.actorType, id: e.actorId, label: e.actorLabel },
      action: e.action,
      subject: { type: e.subjectType, id: e.subjectId },
      reason: e.reason,
      metadata: (e.metadata ?? {}) as Record<string, unknown>,
    })),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.occurredAt, last.id) : null,
  };
}
