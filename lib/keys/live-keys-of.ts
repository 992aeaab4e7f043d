import { runStatements, sqlArray, sqlLiteral, type Statement } from '../db/tx';

export type LiveKey = {
  id: string;
  reservationId: string;
  status: 'pre_issued' | 'active';
  vendorSync: 'pending' | 'synced' | 'failed';
  vendorError: string | null;
};

type Input = { tenantId: string; reservationIds: string[] };

/** The newest live (pre-issued or active) key of each of a tenant's reservations, for the desk's lists; the PIN is not read. */
export function liveKeysStatement({ tenantId, reservationIds }: Input): Statement<Map<string, LiveKey>> {
  return {
    sql:
      reservationIds.length === 0
        ? null
        : `select distinct on (reservation_id) id, reservation_id as "reservationId", status::text as status,
                  vendor_sync::text as "vendorSync", vendor_error as "vendorError"
             from access_keys
            where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and reservation_id = any(${sqlArray(reservationIds, 'uuid')})
              and status in ('pre_issued', 'active')
            order by reservation_id, created_at desc, id`,
    rows: (rows) => new Map((rows as LiveKey[]).map((key) => [key.reservationId, key])),
  };
}

/** `liveKeysStatement` in one round trip, as the tenant's staff. */
export async function liveKeysOf({
  userId,
  ...input
}: Input & { userId?: string | null }): Promise<Map<string, LiveKey>> {
  const [keys] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId, userId }, [
    liveKeysStatement(input),
  ]);
  return keys;
}
