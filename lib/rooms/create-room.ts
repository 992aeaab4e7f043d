import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService } from '../db/tx';
import { AppError } from '../errors';
import { withoutUndefined } from '../facilities/create-facility';
import { assignInstallDevice, holdLockDevice } from '../locks/locks';
import { lockAccountFor, tenantProviderName } from '../locks/tenant-provider';
import type { RoomSettings } from './room-input';
import { refuseArchivedType } from './room-type-archived';

const SYSTEM = { type: 'system' as const, id: null, label: 'system' };

/**
 * Creates a room in one of the tenant's facilities (the composite foreign key refuses another
 * tenant's facility). `lockDeviceRef` names a device of the tenant's lock provider: it becomes the
 * tenant's lock (once per device; on the install's account an assignment, as `lock-assign`) and the
 * room's own door; a device another tenant holds is refused (`conflict`) and nothing is made. The
 * manager's form gives its rate too; with an `actor` the creation is audited (`room.created`).
 */
export async function createRoom(
  input: {
    tenantId: string;
    facilityId: string;
    label: string;
    lockDeviceRef?: string | null;
    /** A room type of the same facility (rooms_room_type_fkey refuses another's: `invalid_request`). */
    roomTypeId?: string | null;
    actor?: Actor;
  } & Partial<Omit<RoomSettings, 'label'>>,
): Promise<{ id: string }> {
  const { tenantId, facilityId, label, lockDeviceRef, roomTypeId, actor, ...rate } = input;
  const provider = lockDeviceRef ? await tenantProviderName(tenantId) : null;
  const account = provider ? await lockAccountFor(tenantId, provider) : null;
  if (provider && !account)
    throw new AppError('unavailable', `The lock provider is not set up (${provider}_not_configured).`, {
      providerCode: `${provider}_not_configured`,
    });
  return asService({ tenantId }, async (tx) => {
    const facilities = await tx.facility.count({ where: { tenantId, id: facilityId } });
    if (facilities !== 1) throw new AppError('not_found', 'No such facility.');
    if (roomTypeId) await refuseArchivedType(tx, tenantId, roomTypeId);
    const room = await tx.room.create({
      data: { tenantId, facilityId, label, roomTypeId: roomTypeId ?? null, ...withoutUndefined(rate) },
      select: { id: true, rateCents: true, currency: true, rateUnit: true, rateName: true },
    });
    if (lockDeviceRef && provider && account) {
      // The operator's word: the device becomes this tenant's (refused when another tenant holds it).
      const lock =
        provider === 'simulator'
          ? await assignInstallDevice(tx, { tenantId, deviceId: lockDeviceRef, actor: actor ?? SYSTEM })
          : await holdLockDevice(tx, { tenantId, provider, account, deviceId: lockDeviceRef });
      await tx.roomLock.create({ data: { tenantId, roomId: room.id, lockId: lock.id } });
    }
    if (actor)
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'room.created',
        subject: { type: 'room', id: room.id },
        roomId: room.id,
        metadata: {
          label,
          facilityId,
          rateCents: room.rateCents,
          currency: room.currency,
          rateUnit: room.rateUnit,
          rateName: room.rateName,
          roomTypeId: roomTypeId ?? null,
        },
      });
    return { id: room.id };
  });
}
