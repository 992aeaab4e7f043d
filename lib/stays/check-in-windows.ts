import { runStatements, sqlArray, sqlLiteral, type Statement } from '../db/tx';

export type CheckInWindow = {
  /** When the check-in opens: the stay's start minus the facility's early check-in minutes. */
  opensAt: Date;
  /** Whether no other stay of the room overlaps the hours before this one starts (early check-in is possible). */
  roomFree: boolean;
};

type Input = { tenantId: string; reservationIds: string[] };

/**
 * For the desk: when each reservation's check-in opens and whether the room is free before it
 * (the same SQL rules the check-in itself is held to), read as the tenant's staff.
 */
export function checkInWindowsStatement({ tenantId, reservationIds }: Input): Statement<Map<string, CheckInWindow>> {
  return {
    sql:
      reservationIds.length === 0
        ? null
        : `select id, app_check_in_opens_at(tenant_id, id) as opens_at, app_room_free_until_start(tenant_id, id) as room_free
             from reservations
            where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = any(${sqlArray(reservationIds, 'uuid')})`,
    rows: (rows) =>
      new Map(
        (rows as { id: string; opens_at: Date; room_free: boolean }[]).map((r) => [
          r.id,
          { opensAt: r.opens_at, roomFree: r.room_free },
        ]),
      ),
  };
}

/** `checkInWindowsStatement` in one round trip. */
export async function checkInWindows({
  userId,
  ...input
}: Input & { userId?: string | null }): Promise<Map<string, CheckInWindow>> {
  const [windows] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId, userId }, [
    checkInWindowsStatement(input),
  ]);
  return windows;
}
