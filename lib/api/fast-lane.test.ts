import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTER_ROUTES } from './router';
import { inFastLane } from './fast-lane.mjs';

const ID = '7f1c2a9e-0000-4000-8000-000000000001';

describe('the fast lane (scripts/web-server.mjs)', () => {
  it('hands the router every address below its prefixes: the API, the providers’ webhooks, the guest page’s calls', () => {
    for (const url of [
      '/api/v1/rooms',
      '/api/v1/reservations?status=booked&limit=5',
      `/api/v1/check-ins/${ID}/key`,
      `/api/v1/reservations/${ID}`,
      `/api/v1/rooms/${ID}/staff-codes`,
      '/api/v1/openapi.json',
      '/api/webhooks/stripe',
      `/api/webhooks/calendly/${ID}`,
      `/api/webhooks/cal/${ID}`,
      `/api/webhooks/acuity/${ID}`,
      `/api/webhooks/seam/${ID}`,
      '/api/guest/Abc-_123/status',
      '/api/guest/abc/key',
      // Addresses the router does not serve are its to refuse (a JSON 404), and a malformed id its 400.
      '/api/v1/roomsx',
      '/api/webhooks/paypal',
      `/api/webhooks/calendly/${ID}/extra`,
      '/api/v1/check-ins/not%20a%20uuid/key',
    ]) {
      expect(inFastLane(url), url).toBe(true);
    }
    for (const route of ROUTER_ROUTES) expect(inFastLane(route.path.replace(/\{\w+\}/g, ID)), route.path).toBe(true);
  });

  it('leaves everything else to Next.js: pages, its own routes, and any path not in its plain form', () => {
    for (const url of [
      '/',
      '/desk',
      '/api',
      '/api/v1',
      '/api/health',
      '/api/auth/session',
      '/api/ping',
      '/api/pingx',
      '/api/v1/rooms/',
      `/api/v1/check-ins/${ID}/key/`,
      '/api/v1/check-ins//key',
      '/api/v1/check-ins/%2e%2e/key',
      '/api/v1/check-ins/a%2fb/key',
      '/api/v1/check-ins/%E0%A4%A/key',
      '/api/webhooks/stripe/',
      '/API/v1/rooms',
      '//api/v1/rooms',
      '/api/v1/../v1/rooms',
      '/api/v1/./rooms',
      '/api/guest//status',
      '/api/guest/%2e%2e/status',
      '/api/v1x/rooms',
    ]) {
      expect(inFastLane(url), url).toBe(false);
    }
  });

  it('reaches the router through its documented fetch, with no Next.js internals (decision 023)', () => {
    const server = readFileSync('scripts/web-server.mjs', 'utf8');
    const lane = readFileSync('lib/api/fast-lane.mjs', 'utf8');
    expect(server).toContain("tsImport('../lib/api/router.ts'");
    expect(lane).toContain('apiFetch(request)');
    expect(server + lane).not.toMatch(/routeModule|userland|ensureUserland|server\/app/);
  });
});
