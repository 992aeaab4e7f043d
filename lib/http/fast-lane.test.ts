import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAST_LANE_ROUTES, fastLaneRoute } from './fast-lane.mjs';

const ID = '7f1c2a9e-0000-4000-8000-000000000001';

describe('the fast lane (scripts/web-server.mjs)', () => {
  it('serves the hot API addresses, the providers’ webhooks and the guest page’s poll, with their parameters', () => {
    expect(fastLaneRoute('/api/v1/rooms')).toEqual({ route: 'api/v1/rooms', params: {} });
    expect(fastLaneRoute('/api/v1/reservations?status=booked&limit=5')).toEqual({
      route: 'api/v1/reservations',
      params: {},
    });
    expect(fastLaneRoute(`/api/v1/check-ins/${ID}/key`)).toEqual({
      route: 'api/v1/check-ins/[id]/key',
      params: { id: ID },
    });
    expect(fastLaneRoute('/api/webhooks/stripe')).toEqual({ route: 'api/webhooks/stripe', params: {} });
    for (const provider of ['calendly', 'cal', 'seam'])
      expect(fastLaneRoute(`/api/webhooks/${provider}/${ID}`)).toEqual({
        route: `api/webhooks/${provider}/[tenantId]`,
        params: { tenantId: ID },
      });
    expect(fastLaneRoute('/api/guest/Abc-_123/status')).toEqual({
      route: 'api/guest/[token]/status',
      params: { token: 'Abc-_123' },
    });
    // Decoded as Next.js decodes a dynamic segment (the route then refuses what is not a UUID).
    expect(fastLaneRoute('/api/v1/check-ins/not%20a%20uuid/key')?.params).toEqual({ id: 'not a uuid' });
  });

  it('leaves everything else to Next.js: other addresses, and any path not in its plain form', () => {
    for (const url of [
      '/',
      '/desk',
      '/api/v1/rooms/',
      '/api/v1/rooms/x',
      `/api/v1/rooms/${ID}/staff-codes`,
      '/api/v1/roomsx',
      `/api/v1/reservations/${ID}`,
      `/api/v1/check-ins/${ID}/key/`,
      `/api/v1/check-ins/${ID}/key/extra`,
      '/api/v1/check-ins/a/b/key',
      '/api/v1/check-ins//key',
      '/api/v1/check-ins/%2e%2e/key',
      '/api/v1/check-ins/a%2fb/key',
      '/api/v1/check-ins/%E0%A4%A/key',
      '/api/webhooks/stripe/',
      '/api/webhooks/paypal',
      `/api/webhooks/github/${ID}`,
      `/api/webhooks/calendly/${ID}/extra`,
      '/API/v1/rooms',
      '//api/v1/rooms',
      '/api/v1/../v1/rooms',
      '/api/ping',
      '/api/pingx',
      '/api/guest/abc/key',
      '/api/guest/abc/status/',
      '/api/guest//status',
      '/api/guest/a/b/status',
      '/api/guest/%2e%2e/status',
    ]) {
      expect(fastLaneRoute(url), url).toBeNull();
    }
  });

  it('names only routes that exist, each once', () => {
    expect(new Set(FAST_LANE_ROUTES).size).toBe(FAST_LANE_ROUTES.length);
    for (const route of FAST_LANE_ROUTES)
      expect(existsSync(path.join(process.cwd(), 'app', route, 'route.ts')), route).toBe(true);
  });
});
