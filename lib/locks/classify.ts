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

type Body = Record<string, unknown>;

/**
 * What a success looks like, per endpoint. An answer is a success only when it has that shape: a
 * missing or mistyped field is never read as "done" (a door code is not marked removed on a guess).
 */
export const SUCCESS_SHAPES = {
  token: (body: Body) => typeof body.access_token === 'string' && body.access_token.length > 0,
  add: (body: Body) =>
    (typeof body.keyboardPwdId === 'number' && Number.isSafeInteger(body.keyboardPwdId)) ||
    (typeof body.keyboardPwdId === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(body.keyboardPwdId)),
  delete: (body: Body) => body.errcode === 0,
  list: (body: Body) => Array.isArray(body.list),
  get: (body: Body) => body.errcode === 0 && body.keyboardPwdId !== undefined && body.keyboardPwdId !== null,
} as const satisfies Record<string, (body: Body) => boolean>;

export type SuccessShape = (body: Body) => boolean;

const malformed: Classified = { ok: false, code: 'malformed_response', retryable: true };

/**
 * Classifies one HTTP exchange with the vendor. HTTP 5xx and 429 are retryable; 401/403 are
 * authorization errors; other 4xx are final. An HTTP 200 may still carry a business error in its
 * body (`errcode` ≠ 0), classified by that code; an `errcode` that is not a whole number, a body
 * that is not a JSON object (empty, HTML, an array) or one without the endpoint's success shape is
 * `malformed_response` — a failure, retried, never a success.
 */
export function classifyResponse(status: number, body: unknown, isSuccess: SuccessShape): Classified {
  if (status >= 500) return { ok: false, code: `http_${status}`, retryable: true };
  if (status === 429) return { ok: false, code: 'http_429', retryable: true };
  if (status === 401 || status === 403) return { ok: false, code: `http_${status}`, retryable: false, auth: true };
  if (status >= 400) return { ok: false, code: `http_${status}`, retryable: false };
  if (status < 200 || status >= 300) return malformed;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return malformed;
  const record = body as Body;
  if ('errcode' in record) {
    const errcode = record.errcode;
    if (typeof errcode !== 'number' || !Number.isSafeInteger(errcode)) return malformed;
    if (errcode !== 0) {
      if (AUTH_CODES.has(errcode)) return { ok: false, code: `vendor_${errcode}`, retryable: false, auth: true };
      return { ok: false, code: `vendor_${errcode}`, retryable: TRANSIENT_CODES.has(errcode) };
    }
  }
  return isSuccess(record) ? { ok: true, data: record } : malformed;
}

/** A network failure or timeout: nothing was answered, so trying again may work. */
export function classifyNetworkError(error: unknown): Classified {
  const name = (error as { name?: string })?.name;
  return {
    ok: false,
    code: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network_error',
    retryable: true,
  };
}
