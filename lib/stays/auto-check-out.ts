import { runStatements, serviceStatement, sqlLiteral, statement } from '../db/tx';

/** Batches one tenant's run takes at most: the rest (a very large tenant's backlog) waits for the next minute. */
const MAX_BATCHES = 10;

/**
 * The automatic check-out (`check_out_ended_stays`, each minute from the worker's cron): every
 * checked-in stay past its end becomes checked out, its live keys expired, audited
 * `checkout.completed` with reason `stay_ended` and the system as actor. One tenant at a time as its
 * service role, in bounded batches, each its own short transaction; rows another transaction holds
 * (a desk or guest check-out, a second worker's run) are skipped, so each stay is checked out once.
 *
 * A stay never checked in is a no-show: it stays `confirmed` (the desk may still cancel or move it),
 * and its pre-issued key expires at its end through the expiry sweep like every key.
 */
export async function checkOutEndedStays(batch = 200): Promise<number> {
  const tenants = await serviceStatement(
    statement<{ tenant_id: string }>(`select distinct tenant_id from reservations
      where status = 'checked_in' and ends_at <= now() order by tenant_id`),
    [],
  );
  let checkedOut = 0;
  for (const { tenant_id: tenantId } of tenants) {
    for (let i = 0; i < MAX_BATCHES; i++) {
      const [rows] = await runStatements({ role: 'app_service', tenantId }, [
        statement<{ n: number }>(
          `select check_out_ended_stays(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(batch, 'int4')}) as n`,
        ),
      ]);
      const n = rows![0]!.n;
      checkedOut += n;
      if (n < batch) break;
    }
  }
  return checkedOut;
}
