import type { Actor } from '../audit/actor';
import { asService, runStatements, sqlArray, sqlLiteral, type Statement } from '../db/tx';
import { AppError } from '../errors';

/** What a guest sent the desk from their link, as the desk lists it. */
export type DeskGuestMessage = {
  id: string;
  reservationId: string;
  kind: 'message' | 'code_problem';
  /** The guest's words; null for a code problem. */
  body: string | null;
  priority: 'normal' | 'high';
  /** Taps counted into one code-problem report. */
  occurrences: number;
  /** Whether a backup code answered the report. */
  backupSent: boolean;
  roomLabel: string;
  guestName: string | null;
  createdAt: Date;
  readAt: Date | null;
};

const COLUMNS = `m.id, m.reservation_id as "reservationId", m.kind::text as kind, m.body, m.priority, m.occurrences,
       m.backup_key_id is not null as "backupSent", r.room_label_snapshot as "roomLabel", g.name as "guestName",
       m.created_at as "createdAt", m.read_at as "readAt"
  from guest_messages m
  join reservations r on r.tenant_id = m.tenant_id and r.id = m.reservation_id
  left join guests g on g.tenant_id = m.tenant_id and g.id = m.guest_id`;

/**
 * The guest messages of the desk's day (the stays on it), newest first, unread and read alike (at most
 * 50): a code problem is high priority; the desk marks each read. Read as the tenant's staff.
 */
export function deskGuestMessagesStatement(input: {
  tenantId: string;
  reservationIds: string[];
}): Statement<DeskGuestMessage[]> {
  return {
    sql:
      input.reservationIds.length === 0
        ? null
        : `select ${COLUMNS}
            where m.tenant_id = ${sqlLiteral(input.tenantId, 'uuid')}
              and m.reservation_id = any(${sqlArray(input.reservationIds, 'uuid')})
            order by m.created_at desc, m.id limit 50`,
    rows: (rows) => rows as DeskGuestMessage[],
  };
}

/** One reservation's guest messages, oldest first (its page shows each beside its timeline row). */
export function reservationGuestMessagesStatement(input: {
  tenantId: string;
  reservationId: string;
}): Statement<DeskGuestMessage[]> {
  return {
    sql: `select ${COLUMNS}
           where m.tenant_id = ${sqlLiteral(input.tenantId, 'uuid')}
             and m.reservation_id = ${sqlLiteral(input.reservationId, 'uuid')}
           order by m.created_at, m.id`,
    rows: (rows) => rows as DeskGuestMessage[],
  };
}

/** `reservationGuestMessagesStatement` in one round trip, as the tenant's staff. */
export async function reservationGuestMessages(input: {
  tenantId: string;
  userId?: string | null;
  reservationId: string;
}): Promise<DeskGuestMessage[]> {
  const { userId, ...scope } = input;
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId: scope.tenantId, userId }, [
    reservationGuestMessagesStatement(scope),
  ]);
  return rows;
}

/**
 * The desk has read a guest's message: it leaves the unread count (once: a second reader changes
 * nothing). Another tenant's message, or none, is `not_found`.
 */
export async function markGuestMessageRead(input: {
  tenantId: string;
  messageId: string;
  actor: Actor;
}): Promise<{ readAt: Date }> {
  const { tenantId, messageId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    await tx.guestMessage.updateMany({
      where: { tenantId, id: messageId, readAt: null },
      data: { readAt: new Date(), readBy: actor.type === 'user' ? actor.id : null },
    });
    const message = await tx.guestMessage.findFirst({ where: { tenantId, id: messageId }, select: { readAt: true } });
    if (!message?.readAt) throw new AppError('not_found', 'There is no such guest message.');
    return { readAt: message.readAt };
  });
}
