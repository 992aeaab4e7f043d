export const TOKEN_SAFETY_MARGIN_SECONDS = 60;
export const TOKEN_MAX_TTL_SECONDS = 95 * 60;

/** How long a provider token may be cached: `clamp(expires_in − 60 s, 0, 95 min)`; never negative. */
export function tokenTtlSeconds(expiresIn: unknown): number {
  const seconds = typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? expiresIn : 0;
  return Math.min(Math.max(seconds - TOKEN_SAFETY_MARGIN_SECONDS, 0), TOKEN_MAX_TTL_SECONDS);
}

/**
 * Per-process cache of provider tokens: an optimisation only, correctness never depends on it. A
 * refresh token (TTLock's last ten years) is kept apart from its access token's short life, so an
 * access token can be renewed without sending the account's password again.
 */
export class TokenCache {
  private readonly entries = new Map<string, { token: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, string>();
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

  getRefreshToken(key: string): string | null {
    return this.refreshTokens.get(key) ?? null;
  }

  /** Remembers the refresh token that came with the latest access token; null forgets it. */
  setRefreshToken(key: string, token: string | null): void {
    if (token) this.refreshTokens.set(key, token);
    else this.refreshTokens.delete(key);
  }
}
