import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { apiAddresses, apiRefusal } from './api-addresses';
import { servesMethod } from './http';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every route file below app/api that the proxy sees (the webhook routes and /api/ping skip it), with its exported methods. */
async function routeFilesBehindTheProxy(): Promise<string[]> {
  const root = path.resolve('app');
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      const relative = path.relative(root, full).split(path.sep);
      if (relative[1] === 'webhooks' || relative[1] === 'ping') continue;
      if (statSync(full).isDirectory()) await walk(full);
      else if (entry === 'route.ts') {
        const address = relative
          .slice(0, -1)
          .map((s) => s.replace(/^\[(\.\.\.)?(\w+)\]$/, '{$1$2}'))
          .join('/');
        const routeModule = (await import(full)) as Record<string, unknown>;
        for (const method of METHODS) if (servesMethod(routeModule[method])) found.push(`${method} /${address}`);
      }
    }
  };
  await walk(path.join(root, 'api'));
  return found.sort();
}

function refusal(method: string, pathname: string) {
  const error = apiRefusal(method, pathname);
  return error && { code: error.code, ...error.details };
}

describe('addresses below /api', () => {
  it('lists exactly the routes and methods the route files export', async () => {
    const listed = apiAddresses()
      .flatMap(({ path: address, methods }) => methods.map((m) => `${m} ${address}`))
      .sort();
    expect(await routeFilesBehindTheProxy()).toEqual(listed);
  });

  it('answers, on the hot routes that skip the proxy, a method they do not serve with the same JSON 405', async () => {
    for (const [file, method, allow] of [
      ['app/api/v1/rooms/route.ts', 'DELETE', ['GET']],
      ['app/api/v1/reservations/route.ts', 'POST', ['GET']],
      ['app/api/v1/check-ins/[id]/key/route.ts', 'GET', ['POST']],
      ['app/api/guest/[token]/status/route.ts', 'POST', ['GET']],
    ] as const) {
      const routeModule = (await import(path.resolve(file))) as Record<string, unknown>;
      const handler = routeModule[method] as (request: Request, context: unknown) => Promise<Response>;
      expect(servesMethod(handler), `${method} ${file}`).toBe(false);
      const response = await handler(new Request('http://localhost:3000/api/v1/x', { method }), {
        params: Promise.resolve({ id: 'x', token: 'x' }),
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow.join(', '));
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(await response.json()).toMatchObject({ error: { code: 'method_not_allowed', allow } });
    }
  });

  it('serves what a route exports, HEAD where GET is, and OPTIONS wherever a route is', () => {
    expect(apiRefusal('GET', '/api/v1/rooms')).toBeNull();
    expect(apiRefusal('HEAD', '/api/v1/rooms')).toBeNull();
    expect(apiRefusal('OPTIONS', '/api/v1/booking-groups')).toBeNull();
    expect(apiRefusal('POST', '/api/v1/reservations/5e3c1d0a-0000-4000-8000-000000000000/cancel')).toBeNull();
    expect(apiRefusal('GET', '/api/v1/openapi.json')).toBeNull();
    expect(apiRefusal('POST', '/api/guest/abc/key')).toBeNull();
    expect(apiRefusal('GET', '/api/auth/session')).toBeNull();
    expect(apiRefusal('POST', '/api/auth/callback/credentials')).toBeNull();
  });

  it('refuses an unknown address with not_found, whatever the method', () => {
    for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) {
      expect(refusal(method, '/api/v1/nowhere')).toEqual({ code: 'not_found' });
      expect(refusal(method, '/api/nope')).toEqual({ code: 'not_found' });
    }
    expect(refusal('GET', '/api')).toEqual({ code: 'not_found' });
    expect(refusal('GET', '/api/v1')).toEqual({ code: 'not_found' });
    expect(refusal('POST', '/api/v1/reservations/abc/unknown')).toEqual({ code: 'not_found' });
    expect(refusal('GET', '/api/v1/rooms/extra/segments')).toEqual({ code: 'not_found' });
    // A dot in a listed path is literal.
    expect(refusal('GET', '/api/v1/openapiXjson')).toEqual({ code: 'not_found' });
  });

  it('refuses a method a known address does not serve with method_not_allowed and what it does serve', () => {
    expect(refusal('DELETE', '/api/v1/rooms')).toEqual({ code: 'method_not_allowed', allow: ['GET'] });
    expect(refusal('GET', '/api/v1/booking-groups')).toEqual({ code: 'method_not_allowed', allow: ['POST'] });
    expect(refusal('PUT', '/api/v1/reservations/abc')).toEqual({ code: 'method_not_allowed', allow: ['GET', 'PATCH'] });
    expect(refusal('GET', '/api/guest/abc/key')).toEqual({ code: 'method_not_allowed', allow: ['POST'] });
    expect(refusal('POST', '/api/health')).toEqual({ code: 'method_not_allowed', allow: ['GET'] });
    expect(apiRefusal('PATCH', '/api/v1/rooms')).toBeInstanceOf(AppError);
  });
});
