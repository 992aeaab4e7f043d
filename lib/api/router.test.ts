import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRACE_MARKER } from '../http/trace.mjs';
import { servesMethod } from './http';
import { API_CSP, apiFetch, ROUTER_PREFIXES, ROUTER_ROUTES } from './router';

// Moved from lib/api/api-addresses.test.ts and proxy.test.ts (issue 29, item 2): the router now
// answers every address below its prefixes itself, refusals included, in `npm run dev` and in
// production alike.

const ID = '7f1c2a9e-0000-4000-8000-000000000001';
const call = (method: string, url: string, headers: Record<string, string> = {}) =>
  apiFetch(new Request(new URL(url, 'http://localhost:3000'), { method, headers }));
const allowOf = (response: Response) => (response.headers.get('allow') ?? '').split(', ').filter(Boolean).sort();

async function refusal(method: string, url: string) {
  const response = await call(method, url);
  if (response.status !== 404 && response.status !== 405) return null;
  const { error } = (await response.json()) as { error: { code: string; allow?: string[] } };
  return { code: error.code, ...(error.allow ? { allow: error.allow } : {}) };
}

describe('the router below /api', () => {
  it('serves only addresses below its prefixes', () => {
    for (const route of ROUTER_ROUTES)
      expect(
        ROUTER_PREFIXES.some((prefix) => route.path.startsWith(`${prefix}/`)),
        route.path,
      ).toBe(true);
  });

  it('answers an unknown address with a JSON 404 and the request id', async () => {
    const response = await call('GET', '/api/v1/nowhere', { 'x-request-id': 'test-request-0001' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toBe('test-request-0001');
    expect(response.headers.get('content-security-policy')).toBe(API_CSP);
    expect(await response.json()).toEqual({
      error: { code: 'not_found', message: 'There is nothing at this address.' },
    });
  });

  it('answers a method a route does not serve with a JSON 405 and Allow', async () => {
    const response = await call('DELETE', '/api/v1/rooms');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({
      error: { code: 'method_not_allowed', message: 'This address accepts GET.', allow: ['GET'] },
    });
    for (const [method, url, allow] of [
      ['DELETE', '/api/v1/rooms', ['GET']],
      ['POST', '/api/v1/reservations', ['GET']],
      ['GET', `/api/v1/check-ins/${ID}/key`, ['POST']],
      ['POST', '/api/guest/x/status', ['GET']],
      ['GET', '/api/webhooks/stripe', ['POST']],
      ['PUT', `/api/webhooks/calendly/${ID}`, ['POST']],
    ] as const) {
      const refused = await call(method, url);
      expect({ method, url, status: refused.status }).toEqual({ method, url, status: 405 });
      expect(refused.headers.get('allow')).toBe(allow.join(', '));
      expect(refused.headers.get('x-request-id')).toBeTruthy();
      expect(await refused.json()).toMatchObject({ error: { code: 'method_not_allowed', allow } });
    }
  });

  it('refuses an unknown address with not_found, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) {
      expect(await refusal(method, '/api/v1/nowhere')).toEqual({ code: 'not_found' });
      expect(await refusal(method, '/api/nope')).toEqual({ code: 'not_found' });
      expect(await refusal(method, '/api/webhooks/paypal')).toEqual({ code: 'not_found' });
    }
    expect(await refusal('GET', '/api')).toEqual({ code: 'not_found' });
    expect(await refusal('GET', '/api/v1')).toEqual({ code: 'not_found' });
    expect(await refusal('POST', '/api/v1/reservations/abc/unknown')).toEqual({ code: 'not_found' });
    expect(await refusal('GET', '/api/v1/rooms/extra/segments')).toEqual({ code: 'not_found' });
    expect(await refusal('POST', `/api/webhooks/calendly/${ID}/extra`)).toEqual({ code: 'not_found' });
    // A dot in a listed path is literal.
    expect(await refusal('GET', '/api/v1/openapiXjson')).toEqual({ code: 'not_found' });
  });

  it('refuses a method a known address does not serve with method_not_allowed and what it does serve', async () => {
    expect(await refusal('DELETE', '/api/v1/rooms')).toEqual({ code: 'method_not_allowed', allow: ['GET'] });
    expect(await refusal('GET', '/api/v1/booking-groups')).toEqual({ code: 'method_not_allowed', allow: ['POST'] });
    expect(await refusal('PUT', '/api/v1/reservations/abc')).toEqual({
      code: 'method_not_allowed',
      allow: ['GET', 'PATCH'],
    });
    expect(await refusal('GET', '/api/guest/abc/key')).toEqual({ code: 'method_not_allowed', allow: ['POST'] });
    // HEAD is GET's answer, without a body, where GET is served; refused where it is not.
    expect((await call('HEAD', '/api/v1/booking-groups')).status).toBe(405);
    const head = await call('HEAD', '/api/v1/openapi.json');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers OPTIONS with 204 and only the methods the address serves', async () => {
    for (const [url, methods] of [
      [`/api/v1/reservations/${ID}`, ['GET', 'HEAD', 'OPTIONS', 'PATCH']],
      [`/api/v1/keys/${ID}/revoke`, ['OPTIONS', 'POST']],
      ['/api/v1/rooms', ['GET', 'HEAD', 'OPTIONS']],
      ['/api/webhooks/stripe', ['OPTIONS', 'POST']],
      ['/api/guest/abc/status', ['GET', 'HEAD', 'OPTIONS']],
    ] as const) {
      const response = await call('OPTIONS', url, { 'x-request-id': 'options-request-01' });
      expect({ url, status: response.status, allow: allowOf(response) }).toEqual({ url, status: 204, allow: methods });
      expect(response.headers.get('x-request-id')).toBe('options-request-01');
    }
    expect((await call('OPTIONS', '/api/v1/nowhere')).status).toBe(404);
  });

  it('answers a TRACE (the web server hands it on as a marked OPTIONS) with 405 and the methods served', async () => {
    const response = await call('OPTIONS', '/api/v1/openapi.json', { [TRACE_MARKER]: '1' });
    expect(response.status).toBe(405);
    expect(allowOf(response)).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect((await response.json()).error.code).toBe('method_not_allowed');
  });

  it('serves a listed route: its handler answers, with the request id it was given', async () => {
    const response = await call('GET', '/api/v1/rooms', { 'x-request-id': 'served-request-01' });
    // No API key: the route's own 401.
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toBe('served-request-01');
    expect((await response.json()).error.code).toBe('unauthorized');
  });
});

/** The Next.js route files below app/api, each with the methods it serves (the catch-all mounts the router). */
async function nextRoutes(): Promise<Record<string, string[]>> {
  const root = path.resolve('app/api');
  const found: Record<string, string[]> = {};
  const walk = async (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) await walk(full);
      else if (entry === 'route.ts') {
        const routeModule = (await import(full)) as Record<string, unknown>;
        found[path.relative(root, dir)] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) =>
          servesMethod(routeModule[m]),
        );
      }
    }
  };
  await walk(root);
  return found;
}

describe('the Next.js routes beside the router', () => {
  it('are the router’s catch-all, sign-in, health and the benchmarks’ empty route', async () => {
    expect(Object.keys(await nextRoutes()).sort()).toEqual(
      ['[[...route]]', 'auth/[...nextauth]', 'health', 'ping'].sort(),
    );
  });

  it('answer a method they do not serve with the same JSON 405, and OPTIONS with what they serve', async () => {
    for (const [dir, method, allow] of [
      ['health', 'POST', ['GET']],
      ['ping', 'DELETE', ['GET', 'POST']],
      ['auth/[...nextauth]', 'PUT', ['GET', 'POST']],
    ] as const) {
      const routeModule = (await import(path.resolve('app/api', dir, 'route.ts'))) as Record<string, unknown>;
      const handler = routeModule[method] as (request: Request, context: unknown) => Promise<Response>;
      expect(servesMethod(handler), `${method} ${dir}`).toBe(false);
      const response = await handler(new Request(`http://localhost:3000/api/${dir}`, { method }), {
        params: Promise.resolve({ nextauth: ['x'] }),
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow.join(', '));
      expect(response.headers.get('x-request-id')).toBeTruthy();
      const options = routeModule.OPTIONS as (request: Request, context: unknown) => Promise<Response>;
      const answer = await options(new Request(`http://localhost:3000/api/${dir}`, { method: 'OPTIONS' }), {
        params: Promise.resolve({}),
      });
      expect(answer.status).toBe(204);
    }
  });
});
