import { describe, expect, it } from 'vitest';
import { bodyLimitOf, MAX_BODY_BYTES, REGISTRATION_BODY_BYTES } from './body-limit.mjs';

describe('bodyLimitOf', () => {
  it('gives only the guest register’s PUT its larger limit', () => {
    expect(bodyLimitOf('PUT', '/api/guest/abc_DEF-123/registration')).toBe(REGISTRATION_BODY_BYTES);
    expect(bodyLimitOf('PUT', '/api/guest/abc/registration?x=1')).toBe(REGISTRATION_BODY_BYTES);
    expect(REGISTRATION_BODY_BYTES).toBeGreaterThan(10 * ((5 * 1024 * 1024 * 4) / 3));
    for (const [method, url] of [
      ['POST', '/api/guest/abc/registration'],
      ['PUT', '/api/guest/abc/registration/x'],
      ['PUT', '/api/guest/a/b/registration'],
      ['POST', '/api/guest/abc/key'],
      ['POST', '/api/webhooks/stripe'],
      ['PUT', '/api/v1/reservations/abc'],
    ] as const)
      expect(bodyLimitOf(method, url)).toBe(MAX_BODY_BYTES);
  });
});
