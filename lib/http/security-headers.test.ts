import { afterEach, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { proxy } from '@/proxy';
import { HSTS, strictTransportSecurity, withSecurityHeaders } from './security-headers';
import { routeHandler } from '../api/router';

const stripeWebhook = routeHandler('POST', '/api/webhooks/stripe');

const savedAppUrl = process.env.APP_URL;
afterEach(() => {
  if (savedAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = savedAppUrl;
});

const noParams = { params: Promise.resolve({}) };
// The proxy reads only the request's headers: a plain Request stands in for Next's (lib/ does not import Next.js).
const pageRequest = (url: string) =>
  Object.assign(new Request(url), { nextUrl: new URL(url) }) as unknown as Parameters<typeof proxy>[0];

describe('Strict-Transport-Security', () => {
  it('is sent when the public URL is https, never over plain http', () => {
    expect(HSTS).toBe('max-age=63072000; includeSubDomains');
    expect(strictTransportSecurity('https://unlockos.example')).toBe(HSTS);
    expect(strictTransportSecurity('HTTPS://unlockos.example:8443/base')).toBe(HSTS);
    expect(strictTransportSecurity('http://localhost:3000')).toBeNull();
    expect(strictTransportSecurity('not a url')).toBeNull();
    expect(strictTransportSecurity(undefined)).toBeNull();
  });

  it('follows APP_URL at run time', () => {
    process.env.APP_URL = 'https://unlockos.example';
    expect(withSecurityHeaders(new Response('ok')).headers.get('strict-transport-security')).toBe(HSTS);
    process.env.APP_URL = 'http://localhost:3000';
    expect(withSecurityHeaders(new Response('ok')).headers.get('strict-transport-security')).toBeNull();
  });

  it('is on the answers of route handlers that skip the proxy (withRequest), errors included', async () => {
    process.env.APP_URL = 'https://unlockos.example';
    const ok = await health(new Request('https://unlockos.example/api/health'), noParams);
    expect(ok.headers.get('x-request-id')).toBeTruthy();
    expect(ok.headers.get('strict-transport-security')).toBe(HSTS);

    const refused = await stripeWebhook(
      new Request('https://unlockos.example/api/webhooks/stripe', { method: 'POST', body: '{}' }),
      noParams,
    );
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers.get('strict-transport-security')).toBe(HSTS);

    process.env.APP_URL = 'http://localhost:3000';
    const plain = await health(new Request('http://localhost:3000/api/health'), noParams);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  it('is on pages and API routes through the proxy', () => {
    process.env.APP_URL = 'https://unlockos.example';
    const page = proxy(pageRequest('https://unlockos.example/desk'));
    expect(page.headers.get('strict-transport-security')).toBe(HSTS);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");

    process.env.APP_URL = 'http://localhost:3000';
    expect(proxy(pageRequest('http://localhost:3000/desk')).headers.get('strict-transport-security')).toBeNull();
  });
});
