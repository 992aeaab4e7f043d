import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { config, proxy } from './proxy';
import { fastLaneRoute } from './lib/http/fast-lane.mjs';

describe('the proxy below /api', () => {
  const call = (method: string, url: string, headers: Record<string, string> = {}) =>
    proxy(new NextRequest(new URL(url, 'http://localhost:3000'), { method, headers }));

  it('answers an unknown /api/v1 address with a JSON 404 and the request id', async () => {
    const response = call('GET', '/api/v1/nowhere', { 'x-request-id': 'test-request-0001' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toBe('test-request-0001');
    expect(await response.json()).toEqual({
      error: { code: 'not_found', message: 'There is nothing at this address.' },
    });
  });

  it('answers a method a route does not serve with a JSON 405 and Allow', async () => {
    const response = call('DELETE', '/api/v1/rooms');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({
      error: { code: 'method_not_allowed', message: 'This address accepts GET.', allow: ['GET'] },
    });
  });

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

describe('OPTIONS and TRACE below /api', () => {
  const call = (method: string, url: string, headers: Record<string, string> = {}) =>
    proxy(new NextRequest(new URL(url, 'http://localhost:3000'), { method, headers }));
  const allowOf = (response: Response) => (response.headers.get('allow') ?? '').split(', ').filter(Boolean).sort();

  it('answers OPTIONS with 204 and only the methods the address serves', () => {
    const id = '7f1c2a9e-0000-4000-8000-000000000001';
    for (const [url, methods] of [
      [`/api/v1/reservations/${id}`, ['GET', 'HEAD', 'OPTIONS', 'PATCH']],
      [`/api/v1/keys/${id}/revoke`, ['OPTIONS', 'POST']],
      ['/api/health', ['GET', 'HEAD', 'OPTIONS']],
    ] as const) {
      const response = call('OPTIONS', url, { 'x-request-id': 'options-request-01' });
      expect({ url, status: response.status, allow: allowOf(response) }).toEqual({ url, status: 204, allow: methods });
      expect(response.headers.get('x-request-id')).toBe('options-request-01');
    }
    expect(call('OPTIONS', '/api/v1/nowhere').status).toBe(404);
  });

  it('answers a TRACE (the web server hands it on as a marked OPTIONS) with 405 and the methods served', async () => {
    const response = call('OPTIONS', '/api/v1/openapi.json', { 'x-unlockos-trace': '1' });
    expect(response.status).toBe(405);
    expect(allowOf(response)).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect((await response.json()).error.code).toBe('method_not_allowed');
    const page = call('OPTIONS', '/desk', { 'x-unlockos-trace': '1' });
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

const FAST_LANE_ID = '7f1c2a9e-0000-4000-8000-000000000001';

describe('which addresses the proxy sees (its matcher)', () => {
  const sees = (url: string) => unstable_doesMiddlewareMatch({ config, url });

  it('skips static files, the webhooks, the hot API addresses and /api/ping itself, and nothing that merely starts like them', () => {
    for (const url of [
      '/_next/static/chunks/app.js',
      '/api/webhooks/stripe',
      '/api/ping',
      '/api/v1/rooms',
      '/api/v1/reservations',
      '/api/v1/reservations?status=booked',
      '/api/v1/check-ins/7f1c2a9e-0000-4000-8000-000000000001/key',
      '/api/guest/abc/status',
    ]) {
      expect(sees(url), url).toBe(false);
    }
    for (const url of [
      '/desk',
      '/api/v1/rooms/7f1c2a9e-0000-4000-8000-000000000001',
      '/api/v1/roomsx',
      '/api/v1/reservations/7f1c2a9e-0000-4000-8000-000000000001',
      '/api/v1/check-ins/7f1c2a9e-0000-4000-8000-000000000001/key/extra',
      '/api/v1/check-ins/a/b/key',
      '/api/pingx',
      '/api/ping/extra',
      '/api/webhooksx',
      '/api/guest/abc/key',
      '/api/guest/abc/status/extra',
    ]) {
      expect(sees(url), url).toBe(true);
    }
  });

  it('skips every address the web server’s fast lane answers (which would otherwise bypass it)', () => {
    const served = [
      '/api/v1/rooms',
      '/api/v1/reservations',
      '/api/v1/reservations?status=booked',
      `/api/v1/check-ins/${FAST_LANE_ID}/key`,
      '/api/v1/check-ins/not%20a%20uuid/key',
      '/api/webhooks/stripe',
      `/api/webhooks/calendly/${FAST_LANE_ID}`,
      `/api/webhooks/cal/${FAST_LANE_ID}`,
      `/api/webhooks/seam/${FAST_LANE_ID}`,
      '/api/guest/abc/status',
    ];
    for (const url of served) {
      expect(fastLaneRoute(url), url).not.toBeNull();
      expect(sees(url), url).toBe(false);
    }
  });
});
