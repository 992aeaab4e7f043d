import { runStatements, sqlLiteral, type Statement } from '../db/tx';

/**
 * The zone a tenant's staff pages show times in: its facility's (a tenant has one as a rule, else
 * the first by name), UTC for a tenant with none yet. Pages say which zone they use.
 */
export function tenantTimeZoneStatement(tenantId: string): Statement<string> {
  return {
    sql: `select time_zone from facilities where tenant_id = ${sqlLiteral(tenantId, 'uuid')} order by name, id limit 1`,
    rows: (rows) => (rows[0]?.time_zone as string | undefined) ?? 'UTC',
  };
}

/** `tenantTimeZoneStatement` in one round trip, as the tenant's staff. */
export async function tenantTimeZone({ tenantId }: { tenantId: string }): Promise<string> {
  const [zone] = await runStatements({ role: 'app_authenticated', tenantId }, [tenantTimeZoneStatement(tenantId)]);
  return zone;
}
