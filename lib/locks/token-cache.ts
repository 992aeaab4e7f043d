export const TOKEN_SAFETY_MARGIN_SECONDS = 60;
export const TOKEN_MAX_TTL_SECONDS = 95 * 60;

/** How long a vendor token may be cached: `clamp(expires_in − 60 s, 0, 95 min)`; never negative. */
export function tokenTtlSeconds(expiresIn: unknown): number {
  const seconds = typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? expiresIn : 0;
  return Math.min(Math.max(seconds - TOKEN_SAFETY_MARGIN_SECONDS, 0), TOKEN_MAX_TTL_SECONDS);
}

/** Per-process cache of vendor tokens: an optimisation only, correctness never depends on it. */
export class TokenCache {
  private readonly entries = new Map<string, { token: string; expiresAt: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  get(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.token;
  }

  set(key: string, token: string, expiresIn: unknown): void {
    const ttl = tokenTtlSeconds(expiresIn);
    if (ttl <= 0) return;
    this.entries.set(key, { token, expiresAt: this.now() + ttl * 1000 });
  }

  invalidate(key: string): void {
    this.entries.delete(key);
  }
}
