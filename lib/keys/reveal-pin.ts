import type { Actor } from '../audit/actor';
import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { writeAuditEvent } from '../audit/write-audit-event';

/**
 * Shows a live key's PIN to staff, audited `key.pin_revealed` in the same transaction. An ended key's
 * PIN is never shown again (`illegal_transition`); the row lock keeps a racing revocation out.
 */
export async function revealPin({
  tenantId,
  keyId,
  actor,
}: {
  tenantId: string;
  keyId: string;
  actor: Actor;
}): Promise<{ pin: string }> {
  return asService({ tenantId }, async (tx) => {
    const [keys] = await runInTransaction(tx, [
      statement<{ pin: string; status: string; roomId: string; reservationId: string }>(`
      select pin, status, room_id as "roomId", reservation_id as "reservationId" from access_keys
       where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(keyId, 'uuid')} for update`),
    ]);
    if (keys.length !== 1) throw new AppError('not_found', 'No such key.');
    const key = keys[0]!;
    if (key.status !== 'pre_issued' && key.status !== 'active') {
      throw new AppError('illegal_transition', 'That key has ended; its PIN is not shown again.', {
        from: key.status,
        to: 'revealed',
      });
    }
    await tx.accessKey.update({ where: { tenantId_id: { tenantId, id: keyId } }, data: { pinRevealedAt: new Date() } });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'key.pin_revealed',
      subject: { type: 'access_key', id: keyId },
      roomId: key.roomId,
      metadata: { reservationId: key.reservationId },
    });
    return { pin: key.pin };
  });
}
