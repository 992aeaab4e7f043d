import { withTenant } from '../db/tx';

export type CheckInWindow = {
  /** When the check-in opens: the stay's start minus the facility's early check-in minutes. */
  opensAt: Date;
  /** Whether no other stay of the room overlaps the hours before this one starts (early check-in is possible). */
  roomFree: boolean;
};

/**
 * For the desk: when each reservation's check-in opens and whether the room is free before it
 * (the same SQL rules the check-in itself is held to), read as the tenant's staff.
 */
export async function checkInWindows({
  tenantId,
  userId,
  reservationIds,
}: {
  tenantId: string;
  userId?: string | null;
  reservationIds: string[];
}): Promise<Map<string, CheckInWindow>> {
  if (reservationIds.length === 0) return new Map();
  const rows = await withTenant(
    { tenantId, userId },
    (tx) =>
      tx.$queryRaw<
        { id: string; opens_at: Date; room_free: boolean }[]
      >`select id, app_check_in_opens_at(tenant_id, id) as opens_at,
        app_room_free_until_start(tenant_id, id) as room_free
      from reservations where tenant_id = ${tenantId}::uuid and id = any(${reservationIds}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, { opensAt: r.opens_at, roomFree: r.room_free }]));
}
