import { serviceStatement, statement } from '../db/tx';
import { AppError } from '../errors';
import type { BucketRule } from './rate-limit';

/** How long a lease's tokens may be spent; what is left then is dropped (never given back, never spent). */
export const LEASE_MS = 1000;
/** The most tokens one lease asks for. */
export const MAX_LEASE = 64;

type Lease = {
  /** Tokens of this lease not spent yet. */
  tokens: number;
  expiresAt: number;
  /** What the next lease asks for: doubles while leases are spent out, halves when one expires unspent. */
  want: number;
  pending: Promise<void> | null;
};

/**
 * A process's share of PostgreSQL token buckets (`app_rate_lease`): a few tokens at a time are taken
 * from the bucket in one short statement and spent here, for at most LEASE_MS. The bucket stays the
 * only truth across processes — every token spent anywhere was taken from it — so all processes
 * together never grant more than it does (capacity + refill); tokens a process leased and did not
 * spend in time are lost, which can only refuse more, never less. A lease asks for at most a quarter
 * of the capacity, so a small limit is leased one token at a time (exact).
 */
export class TokenLeases {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Spends one token of `rule`'s bucket, or throws 429 `rate_limited` with `retryAfter` seconds. */
  async take(rule: BucketRule): Promise<void> {
    for (;;) {
      const lease = this.leases.get(rule.bucket) ?? this.newLease(rule.bucket);
      if (lease.tokens > 0 && lease.expiresAt > this.clock()) {
        lease.tokens--;
        return;
      }
      // One lease request per bucket at a time; the callers waiting on it then take from what it got.
      lease.pending ??= this.renew(rule, lease).finally(() => {
        lease.pending = null;
      });
      await lease.pending;
    }
  }

  private newLease(bucket: string): Lease {
    if (this.leases.size >= 10_000) {
      const now = this.clock();
      for (const [key, lease] of this.leases) if (lease.expiresAt <= now && !lease.pending) this.leases.delete(key);
    }
    const lease: Lease = { tokens: 0, expiresAt: 0, want: 1, pending: null };
    this.leases.set(bucket, lease);
    return lease;
  }

  private async renew(rule: BucketRule, lease: Lease): Promise<void> {
    const cap = Math.max(1, Math.min(MAX_LEASE, Math.floor(rule.capacity / 4)));
    const spentOut = lease.tokens === 0 && lease.expiresAt > 0;
    lease.want = Math.min(cap, spentOut ? lease.want * 2 : Math.max(1, Math.ceil(lease.want / 2)));
    lease.tokens = 0;
    // The lease runs from before the statement was sent: its tokens are never spent later than LEASE_MS
    // after the bucket could have granted them.
    const sentAt = this.clock();
    const [row] = await serviceStatement(
      statement<{ granted: number; retry_after: number }>(
        'select granted, retry_after from app_rate_lease($1, $2::int, $3::float8, $4::int)',
      ),
      [rule.bucket, rule.capacity, rule.perSecond, lease.want],
    );
    if (!row || row.granted < 1) {
      lease.expiresAt = 0;
      throw new AppError('rate_limited', 'Too many requests; try again shortly.', {
        retryAfter: row?.retry_after ?? 1,
      });
    }
    lease.tokens = row.granted;
    lease.expiresAt = sentAt + LEASE_MS;
  }
}
