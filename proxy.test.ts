import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { config, proxy } from './proxy';
import { ROUTER_ROUTES } from './lib/api/router';
import { inFastLane } from './lib/api/fast-lane.mjs';

// What the proxy answered below /api (404s, 405s, OPTIONS) is the router's now: lib/api/router.test.ts.
describe('the proxy below /api', () => {
  const call = (method: string, url: string, headers: Record<string, string> = {}) =>
    proxy(new NextRequest(new URL(url, 'http://localhost:3000'), { method, headers }));

  it('lets a served request through to its route, and leaves pages alone', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/rooms'],
      ['POST', '/api/guest/abc/key'],
      ['GET', '/desk/whatever'],
    ] as const) {
      const response = call(method, url);
      // NextResponse.next(): the route or page answers, with the request id the proxy gave it.
      expect(response.headers.get('x-middleware-next')).toBe('1');
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
  });
});

describe('TRACE on pages', () => {
  it('answers a TRACE (the web server hands it on as a marked OPTIONS) with 405 and a request id', () => {
    const page = proxy(
      new NextRequest(new URL('/desk', 'http://localhost:3000'), {
        method: 'OPTIONS',
        headers: { 'x-unlockos-trace': '1' },
      }),
    );
    expect(page.status).toBe(405);
    expect(page.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('server actions from another origin', () => {
  const post = (headers: Record<string, string>) =>
    proxy(
      new NextRequest(new URL('/desk', 'http://localhost:3000'), {
        method: 'POST',
        headers: { host: 'localhost:3000', 'next-action': 'abc123', ...headers },
      }),
    );

  it('are refused with 403 and a request id, as Next.js would refuse them (with a 500)', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:3001', 'null', 'not a url']) {
      const response = post({ origin });
      expect({ origin, status: response.status }).toEqual({ origin, status: 403 });
      expect((await response.json()).error.code).toBe('forbidden');
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
    const form = proxy(
      new NextRequest(new URL('/desk', 'http://localhost:3000'), {
        method: 'POST',
        headers: { host: 'localhost:3000', origin: 'https://evil.example', 'content-type': 'multipart/form-data; b=x' },
      }),
    );
    expect(form.status).toBe(403);
  });

  it('pass from this origin (the host, or the first forwarded host), and without an Origin header', () => {
    for (const headers of [
      { origin: 'http://localhost:3000' } as Record<string, string>,
      { origin: 'https://desk.example', 'x-forwarded-host': 'desk.example, proxy.internal' },
      {},
    ]) {
      expect(post(headers).headers.get('x-middleware-next')).toBe('1');
    }
  });
});

const ID = '7f1c2a9e-0000-4000-8000-000000000001';

describe('which addresses the proxy sees (its matcher)', () => {
  const sees = (url: string) => unstable_doesMiddlewareMatch({ config, url });

  it('skips static files and everything below /api but sign-in, and nothing that merely starts like them', () => {
    for (const url of [
      '/_next/static/chunks/app.js',
      '/api',
      '/api/webhooks/stripe',
      '/api/ping',
      '/api/health',
      '/api/v1/rooms',
      '/api/v1/reservations',
      '/api/v1/reservations?status=booked',
      `/api/v1/check-ins/${ID}/key`,
      `/api/v1/rooms/${ID}`,
      `/api/v1/reservations/${ID}`,
      '/api/v1/roomsx',
      '/api/pingx',
      '/api/guest/abc/status',
      '/api/guest/abc/key',
      '/api/nowhere',
    ]) {
      expect(sees(url), url).toBe(false);
    }
    for (const url of ['/', '/desk', '/docs/api', '/apix', '/api-docs', '/api/auth/session', '/api/auth/callback/x']) {
      expect(sees(url), url).toBe(true);
    }
  });

  it('skips every address the web server’s fast lane answers (which would otherwise bypass it)', () => {
    for (const route of ROUTER_ROUTES) {
      const url = route.path.replace(/\{\w+\}/g, ID);
      expect(inFastLane(url), url).toBe(true);
      expect(sees(url), url).toBe(false);
    }
  });
});
