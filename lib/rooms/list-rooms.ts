import { withTenant } from '../db/tx';

export type RoomSummary = { id: string; label: string; facilityId: string };

/** Every room of one tenant, by label. */
export async function listRooms({ tenantId }: { tenantId: string }): Promise<RoomSummary[]> {
  return withTenant({ tenantId }, (tx) =>
    tx.room.findMany({
      where: { tenantId },
      select: { id: true, label: true, facilityId: true },
      orderBy: [{ label: 'asc' }, { id: 'asc' }],
    }),
  );
}
