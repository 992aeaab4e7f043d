import type { Actor } from '../audit/actor';
import { asService } from '../db/tx';
import { AppError } from '../errors';
import type { RoomSettings } from './room-input';
import { writeAuditEvent } from '../audit/write-audit-event';
import { changesOf } from '../audit/changes';
import { refuseArchivedType } from './room-type-archived';

/**
 * Changes a room's label, rate, currency, unit, rate name and PIN length (and its type, when
 * `roomTypeId` is given: null for none) in one transaction, audited `room.updated` with what it was
 * and what it is; another tenant's room is `not_found`, a type of another facility `invalid_request`
 * (rooms_room_type_fkey), an archived type `conflict`. Reservations already made keep their
 * snapshots (label and rate name at booking).
 */
export async function updateRoom(input: {
  tenantId: string;
  roomId: string;
  settings: RoomSettings;
  roomTypeId?: string | null;
  actor: Actor;
}): Promise<{ id: string; changed: string[] }> {
  const { tenantId, roomId, roomTypeId, actor } = input;
  const settings = { ...input.settings, ...(roomTypeId !== undefined && { roomTypeId }) };
  return asService({ tenantId }, async (tx) => {
    const rows = await tx.room.findMany({
      where: { tenantId, id: roomId },
      select: {
        label: true,
        rateCents: true,
        currency: true,
        rateUnit: true,
        rateName: true,
        pinLength: true,
        roomTypeId: true,
      },
    });
    if (rows.length !== 1) throw new AppError('not_found', 'No such room.');
    const before = rows[0]!;
    const changes = changesOf(before, settings);
    if (roomTypeId && roomTypeId !== before.roomTypeId) await refuseArchivedType(tx, tenantId, roomTypeId);
    await tx.room.update({ where: { tenantId_id: { tenantId, id: roomId } }, data: settings });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room.updated',
      subject: { type: 'room', id: roomId },
      roomId,
      metadata: { label: settings.label, ...changes },
    });
    return { id: roomId, changed: changes.changed };
  });
}
