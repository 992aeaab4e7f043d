import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';

/**
 * Deletes rate-limit rows that no longer limit anything (`app_rate_prune`: fixed windows over an
 * hour old, buckets idle for an hour and so full again), in batches of `batch` rows per table, each
 * in its own short transaction. Returns how many rows went.
 */
export async function pruneRateLimits(
  options: { batch?: number; maxBatches?: number } = {},
): Promise<{ windows: number; buckets: number }> {
  const batch = options.batch ?? 10_000;
  const total = { windows: 0, buckets: 0 };
  for (let i = 0; i < (options.maxBatches ?? 100); i++) {
    const [rows] = await asService((tx) =>
      runInTransaction(tx, [
        statement<{ windows: number; buckets: number }>(`select * from app_rate_prune(${sqlLiteral(batch, 'int')})`),
      ]),
    );
    const { windows, buckets } = rows[0]!;
    total.windows += windows;
    total.buckets += buckets;
    if (windows < batch && buckets < batch) break;
  }
  return total;
}
