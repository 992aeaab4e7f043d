import { withTenant } from '../db/tx';

/**
 * The rooms of one tenant (or the one `roomId`, another tenant's giving none) with facility, rate,
 * archive state and doors, by facility then label.
 */
export async function listRoomDetails({ tenantId, roomId }: { tenantId: string; roomId?: string }) {
  return withTenant({ tenantId }, (tx) =>
    tx.room.findMany({
      where: { tenantId, ...(roomId && { id: roomId }) },
      select: {
        id: true,
        label: true,
        facilityId: true,
        facility: { select: { name: true, timeZone: true } },
        rateCents: true,
        currency: true,
        rateUnit: true,
        rateName: true,
        pinLength: true,
        roomTypeId: true,
        roomType: { select: { name: true } },
        archivedAt: true,
        roomLocks: { select: { role: true, lock: { select: { id: true, name: true, deviceId: true } } } },
      },
      orderBy: [{ facility: { name: 'asc' } }, { label: 'asc' }, { id: 'asc' }],
    }),
  );
}

export type RoomDetail = Awaited<ReturnType<typeof listRoomDetails>>[number];
