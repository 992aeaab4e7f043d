import type { Actor } from '../audit/actor';
import { asService } from '../db/tx';
import { AppError } from '../errors';

/** Shows a key's PIN to staff, audited `key.pin_revealed` in the same transaction. */
export async function revealPin({ tenantId, keyId, actor }: { tenantId: string; keyId: string; actor: Actor }): Promise<{ pin: string }> {
  return asService({ tenantId }, async (tx) => {
    const keys = await tx.accessKey.findMany({ where: { tenantId, id: keyId }, select: { pin: true, roomId: true, reservationId: true } });
    if (keys.length !== 1) throw new AppError('not_found', 'No such key.');
    const key = keys[0]!;
    await tx.accessKey.update({ where: { id: keyId }, data: { pinRevealedAt: new Date() } });
    await tx.auditEvent.create({
      data: {
        tenantId, actorType: actor.type, actorId: actor.id, actorLabel: actor.label, action: 'key.pin_revealed',
        subjectType: 'access_key', subjectId: keyId, roomId: key.roomId, metadata: { reservationId: key.reservationId },
      },
    });
    return { pin: key.pin };
  });
}
