import { describe, expect, it } from 'vitest';
import { classifyNetworkError, classifyResponse, SUCCESS_SHAPES } from './classify';
import { TokenCache, tokenTtlSeconds } from './token-cache';

describe('classifying TTLock answers', () => {
  it('classifies HTTP statuses', () => {
    expect(classifyResponse(503, null, SUCCESS_SHAPES.add)).toEqual({ ok: false, code: 'http_503', retryable: true });
    expect(classifyResponse(500, { errcode: 90000 }, SUCCESS_SHAPES.add)).toMatchObject({ ok: false, retryable: true });
    expect(classifyResponse(429, {}, SUCCESS_SHAPES.add)).toMatchObject({ ok: false, retryable: true });
    expect(classifyResponse(401, {}, SUCCESS_SHAPES.add)).toEqual({
      ok: false,
      code: 'http_401',
      retryable: false,
      auth: 'token',
    });
    expect(classifyResponse(404, {}, SUCCESS_SHAPES.add)).toEqual({ ok: false, code: 'http_404', retryable: false });
  });

  it('classifies an HTTP 200 by the errcode in its body', () => {
    expect(classifyResponse(200, { keyboardPwdId: 38001 }, SUCCESS_SHAPES.add)).toEqual({
      ok: true,
      data: { keyboardPwdId: 38001 },
    });
    const failure = (errcode: number) =>
      classifyResponse(200, { errcode, errmsg: 'whatever TTLock says' }, SUCCESS_SHAPES.add);
    // The gateway or lock cannot be reached now, or TTLock itself failed: later may work.
    for (const [errcode, code] of [
      [-3002, 'gateway_offline'],
      [-3036, 'device_offline'],
      [-3003, 'gateway_busy'],
      [-3037, 'device_busy'],
      [-2012, 'no_gateway_near_device'],
      [90000, 'provider_internal_error'],
    ] as const)
      expect(failure(errcode)).toEqual({ ok: false, code, errcode, retryable: true });
    // The same call would get the same answer.
    for (const [errcode, code] of [
      [-3007, 'duplicate_code_on_device'],
      [-3009, 'no_space_for_access_code_on_device'],
      [-3006, 'invalid_code_length'],
      [-2009, 'code_not_found'],
      [-1003, 'device_not_found'],
      [30006, 'quota_exceeded'],
      [30007, 'quota_exceeded'],
      [80000, 'clock_skew'],
      [-3, 'invalid_parameter'],
      [-12345, 'ttlock_-12345'],
    ] as const)
      expect(failure(errcode)).toEqual({ ok: false, code, errcode, retryable: false });
    // A refused token may be renewed once; refused credentials never help by themselves.
    for (const errcode of [10003, 10004])
      expect(failure(errcode)).toEqual({ ok: false, code: 'token_invalid', errcode, retryable: false, auth: 'token' });
    for (const [errcode, code] of [
      [10000, 'invalid_client'],
      [10001, 'invalid_client'],
      [10007, 'invalid_credentials'],
      [30005, 'invalid_credentials'],
      [10011, 'refresh_token_invalid'],
    ] as const)
      expect(failure(errcode)).toEqual({ ok: false, code, errcode, retryable: false, auth: 'credentials' });
  });

  it('retries network failures and timeouts', () => {
    expect(classifyNetworkError(Object.assign(new Error('t'), { name: 'TimeoutError' }))).toEqual({
      ok: false,
      code: 'timeout',
      retryable: true,
    });
    expect(classifyNetworkError(new TypeError('fetch failed'))).toEqual({
      ok: false,
      code: 'network_error',
      retryable: true,
    });
  });
});

describe('provider token lifetime', () => {
  it('is clamp(expires_in − 60 s, 0, 95 min)', () => {
    expect(tokenTtlSeconds(7_776_000)).toBe(95 * 60);
    expect(tokenTtlSeconds(3600)).toBe(3540);
    expect(tokenTtlSeconds(60)).toBe(0);
    expect(tokenTtlSeconds(10)).toBe(0);
    expect(tokenTtlSeconds(-5)).toBe(0);
    expect(tokenTtlSeconds(undefined)).toBe(0);
    expect(tokenTtlSeconds(Number.NaN)).toBe(0);
  });

  it('caches only while the token is safely valid, and keeps the refresh token beyond it', () => {
    let now = 0;
    const cache = new TokenCache(() => now);
    cache.set('a', 'token-a', 120);
    cache.setRefreshToken('a', 'refresh-a');
    expect(cache.get('a')).toBe('token-a');
    now = 59_000;
    expect(cache.get('a')).toBe('token-a');
    now = 60_000;
    expect(cache.get('a')).toBeNull();
    expect(cache.getRefreshToken('a')).toBe('refresh-a');
    cache.setRefreshToken('a', null);
    expect(cache.getRefreshToken('a')).toBeNull();
    cache.set('b', 'token-b', 30);
    expect(cache.get('b')).toBeNull();
  });
});
