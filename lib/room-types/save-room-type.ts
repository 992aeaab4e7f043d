import type { Actor } from '../audit/actor';
import { changesOf } from '../audit/changes';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, type Tx } from '../db/tx';
import { AppError } from '../errors';
import type { RoomTypeSettings } from './room-type-input';
import { refuseArchivedType } from '../rooms/room-type-archived';

// The currency the prices were typed in must still be the facility's, else they would be read wrongly.
async function facilityCurrency(tx: Tx, tenantId: string, facilityId: string, typedIn?: string): Promise<string> {
  const rows = await tx.facility.findMany({ where: { tenantId, id: facilityId }, select: { currency: true } });
  if (rows.length !== 1) throw new AppError('not_found', 'No such facility.');
  const { currency } = rows[0]!;
  if (typedIn !== undefined && typedIn !== currency)
    throw new AppError('conflict', 'The facility’s currency has changed: reload the page and type the prices again.', {
      currency,
    });
  return currency;
}

/**
 * Creates a room type in one of the tenant's facilities (another tenant's facility is `not_found`),
 * audited `room_type.created`. A name the facility already has is `conflict` (the unique key decides).
 * `currency`, when given, is the one the prices were typed in: it must be the facility's.
 */
export async function createRoomType(input: {
  tenantId: string;
  facilityId: string;
  settings: RoomTypeSettings;
  currency?: string;
  actor: Actor;
}): Promise<{ id: string }> {
  const { tenantId, facilityId, settings, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const currency = await facilityCurrency(tx, tenantId, facilityId, input.currency);
    const { id } = await tx.roomType.create({ data: { tenantId, facilityId, ...settings }, select: { id: true } });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room_type.created',
      subject: { type: 'room_type', id },
      metadata: { facilityId, currency, ...settings },
    });
    return { id };
  });
}

/**
 * Changes a room type's name, description, capacity and prices in one transaction, audited
 * `room_type.updated` with what changed; another tenant's room type is `not_found`. Stays already
 * booked keep what they were sold for.
 */
export async function updateRoomType(input: {
  tenantId: string;
  roomTypeId: string;
  settings: RoomTypeSettings;
  currency?: string;
  actor: Actor;
}): Promise<{ id: string; changed: string[] }> {
  const { tenantId, roomTypeId, settings, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const rows = await tx.roomType.findMany({
      where: { tenantId, id: roomTypeId },
      select: {
        facilityId: true,
        name: true,
        description: true,
        capacity: true,
        weekdayCents: true,
        weekendCents: true,
        holidayCents: true,
      },
    });
    if (rows.length !== 1) throw new AppError('not_found', 'No such room type.');
    const { facilityId, ...before } = rows[0]!;
    await facilityCurrency(tx, tenantId, facilityId, input.currency);
    const changes = changesOf(before, settings);
    await tx.roomType.update({ where: { tenantId_id: { tenantId, id: roomTypeId } }, data: settings });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room_type.updated',
      subject: { type: 'room_type', id: roomTypeId },
      metadata: { name: settings.name, ...changes },
    });
    return { id: roomTypeId, changed: changes.changed };
  });
}

/**
 * Archives a room type: the booking site stops offering it and no booking source may map to it;
 * its rooms keep it until they are given another. Archiving an archived type changes nothing and
 * writes no audit row; another tenant's room type is `not_found`.
 */
export async function archiveRoomType(input: {
  tenantId: string;
  roomTypeId: string;
  actor: Actor;
}): Promise<{ id: string; archived: true }> {
  const { tenantId, roomTypeId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const rows = await tx.roomType.findMany({
      where: { tenantId, id: roomTypeId },
      select: { name: true, archivedAt: true },
    });
    if (rows.length !== 1) throw new AppError('not_found', 'No such room type.');
    if (rows[0]!.archivedAt) return { id: roomTypeId, archived: true };
    await tx.roomType.update({
      where: { tenantId_id: { tenantId, id: roomTypeId } },
      data: { archivedAt: new Date() },
    });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room_type.archived',
      subject: { type: 'room_type', id: roomTypeId },
      metadata: { name: rows[0]!.name },
    });
    return { id: roomTypeId, archived: true };
  });
}

/**
 * Gives a room a type of its own facility, or none (`null`), audited `room.updated`. A type of
 * another facility or tenant is refused by rooms_room_type_fkey (`invalid_request`), an archived
 * one here (`conflict`); another tenant's room is `not_found`.
 */
export async function setRoomType(input: {
  tenantId: string;
  roomId: string;
  roomTypeId: string | null;
  actor: Actor;
}): Promise<{ id: string; changed: boolean }> {
  const { tenantId, roomId, roomTypeId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const rooms = await tx.room.findMany({
      where: { tenantId, id: roomId },
      select: { label: true, roomTypeId: true },
    });
    if (rooms.length !== 1) throw new AppError('not_found', 'No such room.');
    const before = rooms[0]!.roomTypeId;
    if (before === roomTypeId) return { id: roomId, changed: false };
    if (roomTypeId) await refuseArchivedType(tx, tenantId, roomTypeId);
    await tx.room.update({ where: { tenantId_id: { tenantId, id: roomId } }, data: { roomTypeId } });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room.updated',
      subject: { type: 'room', id: roomId },
      roomId,
      metadata: {
        label: rooms[0]!.label,
        changed: ['roomTypeId'],
        before: { roomTypeId: before },
        after: { roomTypeId },
      },
    });
    return { id: roomId, changed: true };
  });
}
