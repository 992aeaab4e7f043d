import { logger } from '../log/logger';
import { apiKeyByHash, hashApiKey, looksLikeApiKey, touchApiKey, type ApiKeyPrincipal } from './api-keys';

/** Keys remembered per process; the least recently used is forgotten first. */
export const API_KEY_CACHE_SIZE = 1000;
/** `last_used_at` is written at most this often per key and process (and at most once a minute in all). */
const TOUCH_EVERY_MS = 60_000;

/**
 * A process's memory of API keys: hash → key id, tenant and name, which never change for a key, so
 * a hit costs no query. What it cannot know is revocation, so a principal from here is only good
 * with `app_api_key_live` run inside the operation's own transaction (`scopedQuery({ apiKeyId })`,
 * or `withApiKey`'s check): a key revoked in any process is refused by the next request everywhere.
 * Keyed by the SHA-256 of the key, never the key itself.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, ApiKeyPrincipal>();
  private readonly touched = new Map<string, number>();

  constructor(private readonly max = API_KEY_CACHE_SIZE) {}

  /** The key's principal, or `null` for a malformed (no query), unknown or revoked key. */
  async resolve(presented: string): Promise<ApiKeyPrincipal | null> {
    if (!looksLikeApiKey(presented)) return null;
    const hash = hashApiKey(presented);
    const id = Buffer.from(hash).toString('base64');
    const cached = this.entries.get(id);
    if (cached) {
      this.entries.delete(id);
      this.entries.set(id, cached);
      return cached;
    }
    const principal = await apiKeyByHash(hash);
    if (principal) {
      this.entries.set(id, principal);
      if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    return principal;
  }

  /** Forgets a key found revoked, so its next request asks the database again. */
  forget(apiKeyId: string): void {
    for (const [id, principal] of this.entries) if (principal.apiKeyId === apiKeyId) this.entries.delete(id);
    this.touched.delete(apiKeyId);
  }

  /** Records a use in `last_used_at` at most once a minute, off the request's path. */
  touch(principal: ApiKeyPrincipal, now = Date.now()): void {
    const { apiKeyId } = principal;
    if (now - (this.touched.get(apiKeyId) ?? 0) < TOUCH_EVERY_MS) return;
    this.touched.set(apiKeyId, now);
    if (this.touched.size > this.max) this.touched.delete(this.touched.keys().next().value!);
    touchApiKey(principal).catch((error: unknown) =>
      logger.warn({ err: error, apiKeyId }, 'could not record an API key’s last use'),
    );
  }

  get size(): number {
    return this.entries.size;
  }
}
