import type { VendorResult } from './port';

/** Vendor body codes (TTLock style `errcode`) that describe a passing condition: retry with backoff. */
export const TRANSIENT_CODES: ReadonlySet<number> = new Set([
  -3002, // gateway offline
  -3036, // lock offline
  -3003, // gateway busy
  -3037, // lock busy
  -1, // vendor-side internal error reported in the body
]);

/** Authorization failures: never retried (a retry cannot fix a token or a credential). */
export const AUTH_CODES: ReadonlySet<number> = new Set([10001, 10003, 10004]);

/** Codes that mean "that code is not on the lock": a removal has nothing left to do. */
export const CODE_ABSENT: ReadonlySet<number> = new Set([-3009]);

export type Classified = VendorResult<Record<string, unknown>> & { auth?: boolean };

/**
 * Classifies one HTTP exchange with the vendor. HTTP 5xx and 429 are retryable; 401/403 are
 * authorization errors; other 4xx are final. An HTTP 200 may still carry a business error in
 * its body (`errcode` ≠ 0), classified by that code.
 */
export function classifyResponse(status: number, body: unknown): Classified {
  if (status >= 500) return { ok: false, code: `http_${status}`, retryable: true };
  if (status === 429) return { ok: false, code: 'http_429', retryable: true };
  if (status === 401 || status === 403) return { ok: false, code: `http_${status}`, retryable: false, auth: true };
  if (status >= 400) return { ok: false, code: `http_${status}`, retryable: false };
  if (!body || typeof body !== 'object') return { ok: false, code: 'malformed_response', retryable: true };
  const record = body as Record<string, unknown>;
  const errcode = typeof record.errcode === 'number' ? record.errcode : 0;
  if (errcode === 0) return { ok: true, data: record };
  if (AUTH_CODES.has(errcode)) return { ok: false, code: `vendor_${errcode}`, retryable: false, auth: true };
  return { ok: false, code: `vendor_${errcode}`, retryable: TRANSIENT_CODES.has(errcode) };
}

/** A network failure or timeout: nothing was answered, so trying again may work. */
export function classifyNetworkError(error: unknown): Classified {
  const name = (error as { name?: string })?.name;
  return { ok: false, code: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network_error', retryable: true };
}
