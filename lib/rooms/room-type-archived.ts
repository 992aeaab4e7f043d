import type { Tx } from '../db/tx';
import { AppError } from '../errors';

/** Refuses an archived room type (`conflict`); an unknown one is left to the foreign keys. */
export async function refuseArchivedType(tx: Tx, tenantId: string, roomTypeId: string): Promise<void> {
  const archived = await tx.roomType.count({ where: { tenantId, id: roomTypeId, archivedAt: { not: null } } });
  if (archived > 0) throw new AppError('conflict', 'This room type is archived.', { reason: 'room_type_archived' });
}
