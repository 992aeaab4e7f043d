import { randomUUID } from 'node:crypto';
import type { Actor } from '../audit/actor';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { hitRateLimits } from '../ratelimit/rate-limit';
import { MESSAGE_COLUMNS, type MessageRecord } from './message-view';

/** At most 3 resends of one reservation's link per 10 minutes, across every process. */
export const RESEND_LIMIT = { windowSeconds: 600, limit: 3 } as const;

/**
 * Sends a reservation's guest link again (`POST /reservations/{id}/messages`, the desk's "Resend
 * link"): a new `key_link` message with occasion `resend:<uuid>` and its job, audited
 * `message.resent`, in one transaction. `not_found` for another tenant's reservation (checked before
 * anything is counted); `reservation_not_ready` for a cancelled, checked-out or past stay, or a guest
 * without an email; `rate_limited` (with `retryAfter`) past the limit per reservation.
 */
export async function resendKeyLink({
  tenantId,
  reservationId,
  actor,
}: {
  tenantId: string;
  reservationId: string;
  actor: Actor;
}): Promise<MessageRecord> {
  await asService({ tenantId }, async (tx) => {
    const found = await tx.reservation.findMany({ where: { tenantId, id: reservationId }, select: { id: true } });
    if (found.length !== 1) throw new AppError('not_found', 'No such reservation.');
  });
  await hitRateLimits([{ bucket: `message_resend:${tenantId}:${reservationId}`, ...RESEND_LIMIT }]);
  return asService({ tenantId }, async (tx) => {
    const [rows] = await runInTransaction(tx, [
      statement<{ id: string; room_id: string }>(`select m.id, r.room_id
      from reservations r, app_enqueue_guest_message(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(reservationId, 'uuid')}, 'key_link',
        ${sqlLiteral(`resend:${randomUUID()}`, 'text')}) m
      where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and r.id = ${sqlLiteral(reservationId, 'uuid')}`),
    ]);
    const created = rows[0];
    if (!created) {
      throw new AppError(
        'reservation_not_ready',
        'This stay gets no messages: it is cancelled or over, or the guest has no email on file.',
      );
    }
    await runInTransaction(tx, [
      effectStatement(`select app_audit(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(actor.type, 'actor_type')},
        ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')},
      'message.resent', 'reservation', ${sqlLiteral(reservationId, 'uuid')},
        ${sqlLiteral(created.room_id, 'uuid')}, null,
      ${sqlLiteral(JSON.stringify({ messageId: created.id, kind: 'key_link' }), 'jsonb')})`),
    ]);
    const [messages] = await runInTransaction(tx, [
      statement<MessageRecord>(`select ${MESSAGE_COLUMNS} from messages m
      left join reservations r on r.tenant_id = m.tenant_id and r.id = m.reservation_id
      where m.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and m.id = ${sqlLiteral(created.id, 'uuid')}`),
    ]);
    return messages[0]!;
  });
}
