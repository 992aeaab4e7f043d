import { logger } from '../log/logger';
import {
  classifyNetworkError,
  classifyResponse,
  CODE_ABSENT,
  SUCCESS_SHAPES,
  type Classified,
  type SuccessShape,
} from './classify';
import type { LockVendor, VendorResult } from './port';
import { TokenCache } from './token-cache';

export type HttpVendorOptions = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  tokenCache?: TokenCache;
};

const sharedCache = new TokenCache();

/**
 * The lock vendor over HTTP (a TTLock-style open platform). Every call is classified into
 * `{ok, data} | {ok: false, code, retryable}`. Failures are logged with code, endpoint and
 * correlation id only — never bodies, PINs or tokens.
 */
export function createHttpVendor(options: HttpVendorOptions): LockVendor {
  const doFetch = options.fetch ?? fetch;
  const cache = options.tokenCache ?? sharedCache;
  const cacheKey = `${options.baseUrl}|${options.clientId}`;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function exchange(
    endpoint: string,
    body: Record<string, unknown>,
    isSuccess: SuccessShape,
    correlationId: string,
    token?: string,
  ): Promise<Classified> {
    let result: Classified;
    try {
      const response = await doFetch(`${options.baseUrl}${endpoint}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-correlation-id': correlationId,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ ...body, date: Date.now() }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const parsed: unknown = await response.json().catch(() => null);
      result = classifyResponse(response.status, parsed, isSuccess);
    } catch (error) {
      result = classifyNetworkError(error);
    }
    if (!result.ok)
      logger.warn(
        { vendorCode: result.code, retryable: result.retryable, endpoint, correlationId },
        'lock vendor call failed',
      );
    return result;
  }

  async function token(correlationId: string): Promise<VendorResult<string>> {
    const cached = cache.get(cacheKey);
    if (cached) return { ok: true, data: cached };
    const result = await exchange(
      '/oauth2/token',
      { client_id: options.clientId, client_secret: options.clientSecret },
      SUCCESS_SHAPES.token,
      correlationId,
    );
    if (!result.ok) return result;
    const accessToken = result.data.access_token;
    if (typeof accessToken !== 'string') return { ok: false, code: 'malformed_token', retryable: true };
    cache.set(cacheKey, accessToken, result.data.expires_in);
    return { ok: true, data: accessToken };
  }

  async function call(
    endpoint: string,
    body: Record<string, unknown>,
    isSuccess: SuccessShape,
    correlationId: string,
  ): Promise<Classified> {
    const bearer = await token(correlationId);
    if (!bearer.ok) return bearer;
    const result = await exchange(endpoint, body, isSuccess, correlationId, bearer.data);
    if (!result.ok && result.auth) cache.invalidate(cacheKey);
    return result;
  }

  return {
    async programCode(input) {
      const result = await call(
        '/v3/keyboardPwd/add',
        {
          lockId: input.deviceRef,
          keyboardPwd: input.pin,
          startDate: input.validFrom.getTime(),
          endDate: input.expiresAt.getTime(),
          clientRef: input.clientRef,
        },
        SUCCESS_SHAPES.add,
        input.correlationId,
      );
      if (!result.ok) return result;
      return { ok: true, data: { vendorKeyId: String(result.data.keyboardPwdId) } };
    },
    async removeCode(input) {
      const result = await call(
        '/v3/keyboardPwd/delete',
        { lockId: input.deviceRef, keyboardPwdId: input.vendorKeyId },
        SUCCESS_SHAPES.delete,
        input.correlationId,
      );
      if (result.ok || CODE_ABSENT.has(Number(result.code.replace('vendor_', '')))) return { ok: true, data: null };
      return result;
    },
    async findCode(input) {
      const result = await call(
        '/v3/keyboardPwd/list',
        { lockId: input.deviceRef },
        SUCCESS_SHAPES.list,
        input.correlationId,
      );
      if (!result.ok) return result;
      const list = result.data.list as { keyboardPwdId?: unknown; clientRef?: unknown }[];
      const matches = list.filter((entry) => entry && entry.clientRef === input.clientRef);
      if (matches.length === 0) return { ok: true, data: null };
      const id = matches[0]!.keyboardPwdId;
      // A match without a usable id, or two codes claiming one key, is not something to act on.
      if (matches.length > 1 || !(typeof id === 'string' || typeof id === 'number'))
        return { ok: false, code: 'malformed_response', retryable: true };
      return { ok: true, data: { vendorKeyId: String(id) } };
    },
    async checkHealth(input) {
      const result = await exchange(
        '/oauth2/token',
        { client_id: options.clientId, client_secret: options.clientSecret },
        SUCCESS_SHAPES.token,
        input.correlationId,
      );
      if (!result.ok) return result;
      cache.set(cacheKey, result.data.access_token as string, result.data.expires_in);
      return { ok: true, data: null };
    },
    async codeStatus(input) {
      const result = await call(
        '/v3/keyboardPwd/get',
        { lockId: input.deviceRef, keyboardPwdId: input.vendorKeyId },
        SUCCESS_SHAPES.get,
        input.correlationId,
      );
      if (result.ok) return { ok: true, data: { state: 'set' } };
      if (CODE_ABSENT.has(Number(result.code.replace('vendor_', '')))) return { ok: true, data: { state: 'absent' } };
      return result;
    },
  };
}
