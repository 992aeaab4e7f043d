import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { WebhookProvider } from '../db/generated/enums';
import { ZWebhookEventSchema } from './response-schemas';
import { routeHandler } from './router';

const listEvents = routeHandler('GET', '/api/v1/webhook-events');

describe('GET /api/v1/webhook-events', () => {
  it('filters by every provider the inbox stores, Seam included, and lists their events', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const { key } = await createApiKey({ tenantId, name: 'pms', actor: TEST_ACTOR });
    const admin = await adminClient();
    try {
      for (const provider of Object.values(WebhookProvider))
        await admin.query(
          `insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, queued_at) values ($1, $2::webhook_provider, $3, 'test.event', '{}', now())`,
          [tenantId, provider, randomUUID()],
        );
    } finally {
      await admin.end();
    }
    const get = (query: string) =>
      listEvents(
        new Request(`http://test/api/v1/webhook-events${query}`, { headers: { authorization: `Bearer ${key}` } }),
        { params: Promise.resolve({}) },
      );
    for (const provider of Object.values(WebhookProvider)) {
      const response = await get(`?provider=${provider}`);
      expect({ provider, status: response.status }).toEqual({ provider, status: 200 });
      const { data } = await response.json();
      expect(data.map((e: { provider: string }) => e.provider)).toEqual([provider]);
      expect(ZWebhookEventSchema.safeParse(data[0]).success).toBe(true);
    }
    expect((await get('?provider=paypal')).status).toBe(400);
  });
});
