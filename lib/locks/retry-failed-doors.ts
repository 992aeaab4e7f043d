import { runInTransaction, runStatements, serviceStatement, sqlLiteral, statement, type Tx } from '../db/tx';

/**
 * The schedule's part of sending failed doors again (the worker's `retry_failed_doors`, every minute):
 * which tenants have a failed door due (a plain read over the partial index of due doors), then per
 * tenant one round trip to `app_retry_failed_doors`, which sets those doors `pending` and queues
 * their keys' program jobs. When a door is due is decided by the database when it fails (trigger
 * `key_lock_codes_schedule_retry`: backing off, never past 30 minutes before its stay starts).
 */
export async function retryFailedDoors(limit = 200): Promise<{ tenants: number; doors: number }> {
  const tenants = await serviceStatement(
    statement<{ tenant_id: string }>(`select distinct tenant_id from key_lock_codes
      where state = 'failed' and next_retry_at is not null and next_retry_at <= now() order by tenant_id`),
    [],
  );
  let doors = 0;
  for (const { tenant_id: tenantId } of tenants) {
    const [rows] = await runStatements({ role: 'app_service', tenantId }, [
      statement<{ n: number }>(
        `select app_retry_failed_doors(${sqlLiteral(tenantId, 'uuid')}, null, ${sqlLiteral(limit, 'int4')}) as n`,
      ),
    ]);
    doors += rows![0]!.n;
  }
  return { tenants: tenants.length, doors };
}

/**
 * A lock is back online (a provider's device event, a status read that sees it): every failed door
 * on it that a retry can cure is sent again now, in the caller's transaction, and every re-window it
 * refused is tried again. Returns how many.
 */
export async function retryDoorsOfLock(tx: Tx, tenantId: string, lockId: string): Promise<number> {
  const [rows] = await runInTransaction(tx, [
    statement<{ n: number }>(
      `select app_retry_failed_doors(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(lockId, 'uuid')}) as n`,
    ),
  ]);
  return rows[0]?.n ?? 0;
}
