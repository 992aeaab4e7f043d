import { AppError } from '../errors';
import { ApiKeyCache } from '../auth/api-key-cache';
import type { ApiKeyPrincipal } from '../auth/api-keys';
import { API_KEY_REQUIRED } from '../db/errors';
import { serviceStatement, statement } from '../db/tx';
import { API_KEY_LIMIT, type BucketRule } from '../ratelimit/rate-limit';
import { TokenLeases } from '../ratelimit/token-leases';
import { withRequest, type RequestContext } from './http';

export type ApiContext = RequestContext & { principal: ApiKeyPrincipal };

/**
 * The limit per API key: `API_RATE_BURST` requests at once (300), refilled at `API_RATE_PER_SECOND`
 * (100 a second) — read once per process; API.md's figures are the least it may be.
 */
export function apiKeyLimit(env: Record<string, string | undefined> = process.env): {
  capacity: number;
  perSecond: number;
} {
  const capacity = Number(env.API_RATE_BURST ?? API_KEY_LIMIT.capacity);
  const perSecond = Number(env.API_RATE_PER_SECOND ?? API_KEY_LIMIT.perSecond);
  // API.md promises integrations at least the defaults: a limit can be raised, never lowered.
  if (!Number.isInteger(capacity) || capacity < API_KEY_LIMIT.capacity || !(perSecond >= API_KEY_LIMIT.perSecond))
    throw new Error(
      `API_RATE_BURST must be a whole number of at least ${API_KEY_LIMIT.capacity} and API_RATE_PER_SECOND a number of at least ${API_KEY_LIMIT.perSecond} (API.md, Rate limits)`,
    );
  return { capacity, perSecond };
}

/** This process's API-key cache and rate-limit leases (tests build their own to play other processes). */
export const apiKeys = new ApiKeyCache();
export const apiLeases = new TokenLeases();
let limit: { capacity: number; perSecond: number } | null = null;

export function apiKeyBucket(principal: ApiKeyPrincipal): BucketRule {
  limit ??= apiKeyLimit();
  return { bucket: `api:${principal.apiKeyId}`, ...limit };
}

/**
 * Refuses (401) a cached key that was revoked since: one statement, for routes whose operation does
 * not check the key in its own transaction.
 */
async function assertLive(principal: ApiKeyPrincipal): Promise<void> {
  const rows = await serviceStatement(
    statement('select 1 from api_keys where tenant_id = $1::uuid and id = $2::uuid and revoked_at is null'),
    [principal.tenantId, principal.apiKeyId],
  );
  if (rows.length !== 1) throw new AppError('unauthorized', API_KEY_REQUIRED);
}

/**
 * Wraps an `/api/v1` route: a valid `Authorization: Bearer <api key>` or 401, within the key's rate
 * limit or 429; the handler sees only that key's tenant. The key's identity comes from this process's
 * cache and the limit from its token leases (no query on most requests). Whether the key is still
 * unrevoked is asked on every request: by default in one statement before the handler; with
 * `keyCheckedInTransaction`, the handler promises to pass `principal.apiKeyId` to the operation's own
 * transaction (`scopedQuery({ apiKeyId })`), which refuses a revoked key itself at no extra cost.
 */
export function withApiKey<P = Record<string, never>>(
  handler: (ctx: ApiContext, params: P) => Promise<Response>,
  options: { keyCheckedInTransaction?: boolean } = {},
) {
  return withRequest<P>(async (ctx, params) => {
    const header = ctx.request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const principal = match ? await apiKeys.resolve(match[1]!) : null;
    if (!principal) throw new AppError('unauthorized', API_KEY_REQUIRED);
    try {
      await apiLeases.take(apiKeyBucket(principal));
      if (!options.keyCheckedInTransaction) await assertLive(principal);
      const response = await handler({ ...ctx, principal }, params);
      apiKeys.touch(principal);
      return response;
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized') apiKeys.forget(principal.apiKeyId);
      throw error;
    }
  });
}
