import { asService } from '../db/tx';
import { AppError } from '../errors';

export type RateLimitRule = { bucket: string; windowSeconds: number; limit: number };

/**
 * Counts one hit against each rule in PostgreSQL (so limits hold across processes) and throws
 * `rate_limited` with `retryAfter` seconds when any is exceeded.
 */
export async function hitRateLimits(rules: RateLimitRule[]): Promise<void> {
  const results = await asService(async (tx) => {
    const out: { allowed: boolean; retry_after: number }[] = [];
    for (const rule of rules) {
      const rows = await tx.$queryRaw<{ allowed: boolean; retry_after: number }[]>`
        select * from app_rate_limit_hit(${rule.bucket}, ${rule.windowSeconds}::int, ${rule.limit}::int)`;
      out.push(rows[0]!);
    }
    return out;
  });
  const refused = results.filter((r) => !r.allowed);
  if (refused.length > 0) {
    throw new AppError('rate_limited', 'Too many requests; try again shortly.', {
      retryAfter: Math.max(...refused.map((r) => r.retry_after)),
    });
  }
}

export type BucketRule = { bucket: string; capacity: number; perSecond: number };

/**
 * Takes one token from each bucket (PostgreSQL token buckets: bursts up to `capacity`, refilled at
 * `perSecond`) and throws `rate_limited` with `retryAfter` when any is empty.
 */
export async function takeTokens(rules: BucketRule[]): Promise<void> {
  const refused = await asService(async (tx) => {
    const out: number[] = [];
    for (const rule of rules) {
      const rows = await tx.$queryRaw<{ allowed: boolean; retry_after: number }[]>`
        select * from app_rate_take(${rule.bucket}, ${rule.capacity}::int, ${rule.perSecond}::float8)`;
      if (!rows[0]!.allowed) out.push(rows[0]!.retry_after);
    }
    return out;
  });
  if (refused.length > 0)
    throw new AppError('rate_limited', 'Too many requests; try again shortly.', { retryAfter: Math.max(...refused) });
}

/** The API's limit per key: bursts of 300 requests, 100 a second sustained. */
export const API_KEY_LIMIT = { capacity: 300, perSecond: 100 } as const;

export type TakeAllResult = { allowed: boolean; retryAfter: number; tokens: number[] };

/**
 * Takes one token from every bucket or from none (`app_rate_take_all`): when any is empty nothing is
 * spent. `tokens` is what each bucket holds afterwards, in the order given. Never throws for a limit.
 */
export async function takeAllTokens(rules: BucketRule[]): Promise<TakeAllResult> {
  const rows = await asService(
    (tx) =>
      tx.$queryRaw<{ allowed: boolean; retry_after: number; tokens: number[] }[]>`
      select * from app_rate_take_all(${rules.map((r) => r.bucket)}::text[], ${rules.map((r) => r.capacity)}::int[], ${rules.map((r) => r.perSecond)}::float8[])`,
  );
  const row = rows[0]!;
  return { allowed: row.allowed, retryAfter: row.retry_after, tokens: row.tokens.map(Number) };
}

/** Gives one token back to each bucket (never beyond its capacity): the request turned out not to count. */
export async function giveTokens(rules: BucketRule[]): Promise<void> {
  await asService(async (tx) => {
    for (const rule of rules) await tx.$executeRaw`select app_rate_give(${rule.bucket}, ${rule.capacity}::int)`;
  });
}
