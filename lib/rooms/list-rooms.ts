import { runStatements, statement, sqlLiteral } from '../db/tx';

export type RoomSummary = { id: string; label: string; facilityId: string };

/**
 * Every room of one tenant, by label: one round trip (`scopedQuery`, as the tenant's staff). With
 * `apiKeyId`, the same transaction refuses a key revoked meanwhile (401).
 */
export async function listRooms({
  tenantId,
  apiKeyId,
}: {
  tenantId: string;
  apiKeyId?: string;
}): Promise<RoomSummary[]> {
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId, apiKeyId }, [
    statement<RoomSummary>(`select id, label, facility_id as "facilityId" from rooms where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
      order by label, id`),
  ]);
  return rows!;
}
