import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';

type DoorOutcome = {
  outcome:
    | 'removed'
    | 'replaced'
    | 'room_not_found'
    | 'not_a_door'
    | 'lock_not_found'
    | 'lock_in_use'
    | 'offline_code'
    | 'last_door';
  role?: 'room' | 'entrance' | 'other';
  keysRemoving?: string[];
  keysSent?: string[];
  keysSkipped?: number;
  doorsLeft?: number;
  liveKeys?: number;
};

/** The refusals of a door change, in words; every one writes nothing. */
export function refuseDoorChange(result: DoorOutcome): never {
  switch (result.outcome) {
    case 'room_not_found':
      throw new AppError('not_found', 'Unknown room.');
    case 'lock_not_found':
      throw new AppError('not_found', 'Unknown lock.');
    case 'not_a_door':
      throw new AppError('not_found', 'That lock is not a door of this room.', { reason: 'not_a_door' });
    case 'lock_in_use':
      throw new AppError('conflict', 'That lock is already a door of a room; choose an unassigned lock.', {
        reason: 'lock_in_use',
      });
    case 'offline_code':
      throw new AppError(
        'conflict',
        'A live key holds an offline code on this door; it cannot be taken off the lock. End or re-issue that key first.',
        { reason: 'offline_code' },
      );
    case 'last_door':
      throw new AppError(
        'conflict',
        "This is the room's last door and stays hold live keys on it; replace the lock instead, or end those keys first.",
        { reason: 'last_door', liveKeys: result.liveKeys },
      );
    default:
      throw new AppError('internal', `Unexpected door change outcome ${result.outcome}.`);
  }
}

/** Runs one of the room-door functions (prisma/sql/rooms) and returns what it said. */
export function doorChangeStatement(sql: string) {
  return statement<{ result: DoorOutcome }>(`select ${sql} as result`);
}

/**
 * Takes a lock off a room's doors (the room page's "Remove door"): the live codes of the room's keys
 * come off that lock through each key's removal job, the door rows stay (detached) for the
 * timeline, and the room's other doors keep their codes — in one transaction that a check-in or a
 * key issue on the room waits for (or that waits for it), so no code lands on the removed door.
 * The last door of a room with live keys is refused (`conflict`, `last_door`), as is a door holding
 * a live offline code. Audited `room.door_removed`.
 */
export async function removeRoomDoor(input: {
  tenantId: string;
  roomId: string;
  lockId: string;
  actor: Actor;
}): Promise<{ roomId: string; lockId: string; keysRemoving: number; doorsLeft: number }> {
  const { tenantId, roomId, lockId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const [[row]] = await runInTransaction(tx, [
      doorChangeStatement(
        `app_remove_room_door(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(roomId, 'uuid')}, ${sqlLiteral(lockId, 'uuid')})`,
      ),
    ]);
    const result = row!.result;
    if (result.outcome !== 'removed') refuseDoorChange(result);
    const keysRemoving = result.keysRemoving?.length ?? 0;
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room.door_removed',
      subject: { type: 'room', id: roomId },
      roomId,
      metadata: { lockId, role: result.role ?? 'room', keysRemoving, doorsLeft: result.doorsLeft ?? 0 },
    });
    return { roomId, lockId, keysRemoving, doorsLeft: result.doorsLeft ?? 0 };
  });
}
