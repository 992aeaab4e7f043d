import { effectStatement, runStatements, sqlArray, sqlLiteral, statement, type Statement } from '../db/tx';
import { AppError } from '../errors';

export type RateLimitRule = { bucket: string; windowSeconds: number; limit: number };

function rateLimited(retryAfter: number): AppError {
  return new AppError('rate_limited', 'Too many requests; try again shortly.', { retryAfter });
}

/**
 * One hit against each rule, counted in PostgreSQL (so limits hold across processes), as ONE statement
 * that composes with others (`runStatements`): its `rows` throws `rate_limited` with `retryAfter` seconds
 * when any rule is exceeded. Every rule is counted, in the order given (the same order for every caller,
 * so two buckets are never locked in opposite orders). `app_rate_limit_hit` is open to every role.
 */
export function rateLimitHits(rules: RateLimitRule[]): Statement<void> {
  const values = rules.map(
    (rule, i) =>
      `(${i}, ${sqlLiteral(rule.bucket, 'text')}, ${sqlLiteral(rule.windowSeconds, 'int4')}, ${sqlLiteral(rule.limit, 'int4')})`,
  );
  return {
    sql: `select coalesce(bool_and(h.allowed), true) as allowed, max(h.retry_after) filter (where not h.allowed) as retry_after
            from (values ${values.join(', ')}) as v (i, bucket, window_seconds, hit_limit)
            cross join lateral app_rate_limit_hit(v.bucket, v.window_seconds, v.hit_limit) h`,
    rows: (rows) => {
      const verdict = rows[0] as { allowed: boolean; retry_after: number | null };
      if (!verdict.allowed) throw rateLimited(verdict.retry_after ?? 1);
    },
  };
}

/**
 * Counts one hit against each rule (`rateLimitHits`) in one round trip and throws `rate_limited` with
 * `retryAfter` seconds when any is exceeded.
 */
export async function hitRateLimits(rules: RateLimitRule[]): Promise<void> {
  await runStatements({ role: 'app_service' }, [rateLimitHits(rules)]);
}

export type BucketRule = { bucket: string; capacity: number; perSecond: number };

/** The API's limit per key: bursts of 300 requests, 100 a second sustained. */
export const API_KEY_LIMIT = { capacity: 300, perSecond: 100 } as const;

export type TakeAllResult = { allowed: boolean; retryAfter: number; tokens: number[] };

/**
 * Takes one token from every bucket or from none (`app_rate_take_all`): when any is empty nothing is
 * spent. `tokens` is what each bucket holds afterwards, in the order given. Never throws for a limit.
 */
export async function takeAllTokens(rules: BucketRule[]): Promise<TakeAllResult> {
  const [rows] = await runStatements({ role: 'app_service' }, [
    statement<{ allowed: boolean; retry_after: number; tokens: number[] }>(
      `select * from app_rate_take_all(${sqlArray(
        rules.map((r) => r.bucket),
        'text',
      )}, ${sqlArray(
        rules.map((r) => r.capacity),
        'int4',
      )}, ${sqlArray(
        rules.map((r) => r.perSecond),
        'float8',
      )})`,
    ),
  ]);
  const row = rows![0]!;
  return { allowed: row.allowed, retryAfter: row.retry_after, tokens: row.tokens.map(Number) };
}

/** Gives one token back to each bucket (never beyond its capacity): the request turned out not to count. */
export async function giveTokens(rules: BucketRule[]): Promise<void> {
  await runStatements(
    { role: 'app_service' },
    rules.map((rule) =>
      effectStatement(`select app_rate_give(${sqlLiteral(rule.bucket, 'text')}, ${sqlLiteral(rule.capacity, 'int4')})`),
    ),
  );
}
