import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, runInTransaction, sqlLiteral } from '../db/tx';
import { doorChangeStatement, refuseDoorChange } from './remove-room-door';

/**
 * Replaces a room's door lock (a broken or swapped device) with another lock of the tenant that is
 * no room's door: the door keeps its role, every live code of the room goes onto the new lock (its
 * program job) and comes off the old one (its removal job), in one transaction under the room's
 * door lock. The old lock stays in the tenant's list, unassigned. A lock of another tenant, or one
 * already a door, writes nothing. Audited `room.lock_replaced`.
 */
export async function replaceRoomLock(input: {
  tenantId: string;
  roomId: string;
  oldLockId: string;
  newLockId: string;
  actor: Actor;
}): Promise<{ roomId: string; lockId: string; keysSent: number; keysRemoving: number; keysSkipped: number }> {
  const { tenantId, roomId, oldLockId, newLockId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const [[row]] = await runInTransaction(tx, [
      doorChangeStatement(
        `app_replace_room_lock(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(roomId, 'uuid')},
          ${sqlLiteral(oldLockId, 'uuid')}, ${sqlLiteral(newLockId, 'uuid')})`,
      ),
    ]);
    const result = row!.result;
    if (result.outcome !== 'replaced') refuseDoorChange(result);
    const summary = {
      keysSent: result.keysSent?.length ?? 0,
      keysRemoving: result.keysRemoving?.length ?? 0,
      keysSkipped: result.keysSkipped ?? 0,
    };
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room.lock_replaced',
      subject: { type: 'room', id: roomId },
      roomId,
      metadata: { oldLockId, newLockId, role: result.role ?? 'room', ...summary },
    });
    return { roomId, lockId: newLockId, ...summary };
  });
}
