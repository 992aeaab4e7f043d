import { describe, expect, it } from 'vitest';
import { classifyNetworkError, classifyResponse, SUCCESS_SHAPES } from './classify';
import { TokenCache, tokenTtlSeconds } from './token-cache';

describe('vendor result classification', () => {
  it('classifies HTTP statuses', () => {
    expect(classifyResponse(503, null, SUCCESS_SHAPES.add)).toMatchObject({
      ok: false,
      code: 'http_503',
      retryable: true,
    });
    expect(classifyResponse(500, { errcode: -1 }, SUCCESS_SHAPES.add)).toMatchObject({ ok: false, retryable: true });
    expect(classifyResponse(429, {}, SUCCESS_SHAPES.add)).toMatchObject({ ok: false, retryable: true });
    expect(classifyResponse(401, {}, SUCCESS_SHAPES.add)).toMatchObject({
      ok: false,
      code: 'http_401',
      retryable: false,
      auth: true,
    });
    expect(classifyResponse(403, {}, SUCCESS_SHAPES.add)).toMatchObject({ ok: false, retryable: false, auth: true });
    expect(classifyResponse(400, {}, SUCCESS_SHAPES.add)).toMatchObject({
      ok: false,
      code: 'http_400',
      retryable: false,
    });
  });

  it('classifies an HTTP 200 by the business code in its body', () => {
    expect(classifyResponse(200, { errcode: 0, keyboardPwdId: '1' }, SUCCESS_SHAPES.add)).toEqual({
      ok: true,
      data: { errcode: 0, keyboardPwdId: '1' },
    });
    expect(classifyResponse(200, { list: [] }, SUCCESS_SHAPES.list)).toMatchObject({ ok: true });
    expect(classifyResponse(200, { errcode: -3007, errmsg: 'passcode exists' }, SUCCESS_SHAPES.add)).toMatchObject({
      ok: false,
      code: 'vendor_-3007',
      retryable: false,
    });
    expect(classifyResponse(200, { errcode: 30006 }, SUCCESS_SHAPES.add)).toMatchObject({
      ok: false,
      retryable: false,
    });
    for (const transient of [-3002, -3036, -3003, -3037]) {
      expect(classifyResponse(200, { errcode: transient }, SUCCESS_SHAPES.add)).toMatchObject({
        ok: false,
        retryable: true,
      });
    }
    for (const auth of [10003, 10004]) {
      expect(classifyResponse(200, { errcode: auth }, SUCCESS_SHAPES.add)).toMatchObject({
        ok: false,
        retryable: false,
        auth: true,
      });
    }
  });

  it('retries network failures and timeouts', () => {
    expect(classifyNetworkError(Object.assign(new Error('t'), { name: 'TimeoutError' }))).toMatchObject({
      code: 'timeout',
      retryable: true,
    });
    expect(classifyNetworkError(new TypeError('fetch failed'))).toMatchObject({
      code: 'network_error',
      retryable: true,
    });
  });
});

describe('vendor token lifetime', () => {
  it('is clamp(expires_in − 60 s, 0, 95 min)', () => {
    expect(tokenTtlSeconds(7_776_000)).toBe(95 * 60);
    expect(tokenTtlSeconds(3600)).toBe(3540);
    expect(tokenTtlSeconds(60)).toBe(0);
    expect(tokenTtlSeconds(10)).toBe(0);
    expect(tokenTtlSeconds(-5)).toBe(0);
    expect(tokenTtlSeconds(undefined)).toBe(0);
    expect(tokenTtlSeconds(Number.NaN)).toBe(0);
  });

  it('caches only while the token is safely valid', () => {
    let now = 0;
    const cache = new TokenCache(() => now);
    cache.set('a', 'token-a', 120);
    expect(cache.get('a')).toBe('token-a');
    now = 59_000;
    expect(cache.get('a')).toBe('token-a');
    now = 60_000;
    expect(cache.get('a')).toBeNull();
    cache.set('b', 'token-b', 30);
    expect(cache.get('b')).toBeNull();
  });
});
