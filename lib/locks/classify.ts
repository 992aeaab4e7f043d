import type { LockResult } from './provider';

/**
 * What TTLock's documented errcodes mean to us (euopen.ttlock.com, "API Error Codes"): a code of
 * our own, whether retrying later can help, and whether it is about the access token (one fresh
 * token may help) or the credentials themselves (nothing automatic can).
 */
type Meaning = { code: string; retryable: boolean; auth?: 'token' | 'credentials' };

export const TTLOCK_ERRCODES: ReadonlyMap<number, Meaning> = new Map<number, Meaning>([
  // The lock cannot be reached right now: a gateway or lock that comes back, or stops being busy.
  [-3002, { code: 'gateway_offline', retryable: true }],
  [-3036, { code: 'device_offline', retryable: true }],
  [-2012, { code: 'no_gateway_near_device', retryable: true }],
  [-3003, { code: 'gateway_busy', retryable: true }],
  [-3037, { code: 'device_busy', retryable: true }],
  [90000, { code: 'provider_internal_error', retryable: true }],
  // The same call would get the same answer.
  [-3007, { code: 'duplicate_code_on_device', retryable: false }],
  [-3009, { code: 'no_space_for_access_code_on_device', retryable: false }],
  [-4056, { code: 'no_space_for_access_code_on_device', retryable: false }],
  [-3006, { code: 'invalid_code_length', retryable: false }],
  [-2032, { code: 'code_too_simple', retryable: false }],
  [-2009, { code: 'code_not_found', retryable: false }],
  [-1003, { code: 'device_not_found', retryable: false }],
  [-2025, { code: 'device_frozen', retryable: false }],
  [-4043, { code: 'not_supported_by_device', retryable: false }],
  [-1026, { code: 'offline_code_unavailable', retryable: false }],
  [-2018, { code: 'permission_denied', retryable: false }],
  [20002, { code: 'permission_denied', retryable: false }],
  [-3, { code: 'invalid_parameter', retryable: false }],
  // The account's API calls are used up (per period, or for the month): waiting minutes will not do.
  [30006, { code: 'quota_exceeded', retryable: false }],
  [30007, { code: 'quota_exceeded', retryable: false }],
  // Our clock is more than five minutes off TTLock's: every call would be refused until it is fixed.
  [80000, { code: 'clock_skew', retryable: false }],
  [10003, { code: 'token_invalid', retryable: false, auth: 'token' }],
  [10004, { code: 'token_invalid', retryable: false, auth: 'token' }],
  [10000, { code: 'invalid_client', retryable: false, auth: 'credentials' }],
  [10001, { code: 'invalid_client', retryable: false, auth: 'credentials' }],
  [10007, { code: 'invalid_credentials', retryable: false, auth: 'credentials' }],
  [30005, { code: 'invalid_credentials', retryable: false, auth: 'credentials' }],
  [10011, { code: 'refresh_token_invalid', retryable: false, auth: 'credentials' }],
]);

export type Body = Record<string, unknown>;

/** One exchange classified: the body on success; on failure our code, TTLock's errcode when it gave one. */
export type Classified =
  | { ok: true; data: Body }
  | { ok: false; code: string; retryable: boolean; errcode?: number; auth?: 'token' | 'credentials' };

export type SuccessShape = (body: Body) => boolean;

const isId = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * What a success looks like, per endpoint (TTLock's documented answers). An answer is a success
 * only when it has that shape: a missing or mistyped field is never read as "done" — a door code
 * is not marked set or removed on a guess.
 */
export const SUCCESS_SHAPES = {
  token: (body: Body) => typeof body.access_token === 'string' && body.access_token.length > 0,
  /** `/v3/keyboardPwd/add` answers `{keyboardPwdId}` (an Int). */
  add: (body: Body) => isId(body.keyboardPwdId),
  /** `/v3/keyboardPwd/delete` and `/change` answer `{errcode: 0, errmsg}`: nothing else means done. */
  done: (body: Body) => body.errcode === 0,
  /** The paged lists answer `{list, pageNo, pageSize, pages, total}`. */
  page: (body: Body) =>
    Array.isArray(body.list) && typeof body.pages === 'number' && Number.isSafeInteger(body.pages) && body.pages >= 0,
  /** `/v3/gateway/listLock` answers `{list}`, unpaged. */
  list: (body: Body) => Array.isArray(body.list),
  /** `/v3/keyboardPwd/get` answers `{keyboardPwd, keyboardPwdId}`. */
  passcode: (body: Body) =>
    isId(body.keyboardPwdId) && typeof body.keyboardPwd === 'string' && /^\d{4,12}$/.test(body.keyboardPwd),
} as const satisfies Record<string, SuccessShape>;

export const MALFORMED = { ok: false, code: 'malformed_response', retryable: true } as const;

/** The meaning of a TTLock errcode; one we do not know is final (`ttlock_<errcode>`). */
export function classifyErrcode(errcode: number): Classified & { ok: false } {
  const meaning = TTLOCK_ERRCODES.get(errcode) ?? { code: `ttlock_${errcode}`, retryable: false };
  return { ok: false, errcode, ...meaning };
}

/**
 * Classifies one HTTP exchange with TTLock. HTTP 5xx and 429 are retryable; 401/403 are token
 * errors; other 4xx are final. An HTTP 200 may still carry a business error in its body (`errcode`
 * ≠ 0), classified by that code; an `errcode` that is not a whole number, a body that is not a JSON
 * object (empty, HTML, an array) or one without the endpoint's success shape is `malformed_response`
 * — a failure, retried, never a success.
 */
export function classifyResponse(status: number, body: unknown, isSuccess: SuccessShape): Classified {
  if (status >= 500) return { ok: false, code: `http_${status}`, retryable: true };
  if (status === 429) return { ok: false, code: 'http_429', retryable: true };
  if (status === 401 || status === 403) return { ok: false, code: `http_${status}`, retryable: false, auth: 'token' };
  if (status >= 400) return { ok: false, code: `http_${status}`, retryable: false };
  if (status < 200 || status >= 300) return MALFORMED;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return MALFORMED;
  const record = body as Body;
  if ('errcode' in record) {
    const errcode = record.errcode;
    if (typeof errcode !== 'number' || !Number.isSafeInteger(errcode)) return MALFORMED;
    if (errcode !== 0) return classifyErrcode(errcode);
  }
  return isSuccess(record) ? { ok: true, data: record } : MALFORMED;
}

/** A tenant-given endpoint that could not be reached, however (lib/http/outbound-fetch.ts), or a redirect. */
export const UNREACHABLE = { ok: false, code: 'provider_unreachable', retryable: true } as const;

/** A network failure or timeout: nothing was answered, so trying again may work. */
export function classifyNetworkError(error: unknown): Classified {
  const name = (error as { name?: string })?.name;
  if (name === 'UnreachableError') return UNREACHABLE;
  return {
    ok: false,
    code: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network_error',
    retryable: true,
  };
}

/** A classified failure as the port's result: our code and whether to retry, nothing of TTLock's. */
export function asFailure(failure: Classified & { ok: false }): LockResult<never> {
  return { ok: false, code: failure.code, retryable: failure.retryable };
}
