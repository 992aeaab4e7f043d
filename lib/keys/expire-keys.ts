import { runStatements, statement, serviceStatement, sqlLiteral } from '../db/tx';

/**
 * The expiry sweep: every live key past its end becomes expired, audited, with its removal queued.
 * One tenant at a time (`expire_due_keys(p_tenant_id, …)`, one round trip each, as that tenant's
 * service role): first which tenants have keys due, a plain read over the partial index of live keys.
 * `limit` bounds each tenant's run; what is left is swept on the next minute.
 */
export async function expireDueKeys(limit = 500): Promise<number> {
  const tenants = await serviceStatement(
    statement<{ tenant_id: string }>(`select distinct tenant_id from access_keys
      where status in ('pre_issued', 'active') and expires_at <= now() order by tenant_id`),
    [],
  );
  let expired = 0;
  for (const { tenant_id: tenantId } of tenants) {
    const [rows] = await runStatements({ role: 'app_service', tenantId }, [
      statement<{ n: number }>(
        `select expire_due_keys(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(limit, 'int4')}) as n`,
      ),
    ]);
    expired += rows![0]!.n;
  }
  return expired;
}
