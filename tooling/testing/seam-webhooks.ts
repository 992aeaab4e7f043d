import { randomUUID } from 'node:crypto';
import { signSvix } from './svix';
import { routeHandler } from '../../lib/api/router';

const seamRoute = routeHandler('POST', '/api/webhooks/seam/{tenantId}');

// Seam deliveries as Svix sends them, signed by hand (tooling/testing/svix.ts), for the webhook tests.

/** A Seam event body (its own top-level fields, as Seam's webhooks carry them). */
export function seamEvent(type: string, fields: Record<string, unknown> = {}) {
  const now = new Date().toISOString();
  return {
    event_id: randomUUID(),
    event_type: type,
    workspace_id: randomUUID(),
    created_at: now,
    occurred_at: now,
    connected_account_id: randomUUID(),
    ...fields,
  };
}

export type SeamDelivery = {
  secret?: string;
  id?: string;
  timestamp?: number;
  /** Replaces the computed headers (null drops one). */
  headers?: Partial<Record<'svix-id' | 'svix-timestamp' | 'svix-signature', string | null>>;
  /** Sends these bytes instead of the signed body (a tampered delivery). */
  rawOverride?: string;
};

/** Delivers a Seam event to a tenant's route, signed with `secret` under Svix id `id` (fresh when absent). */
export async function sendSeam(tenantId: string, body: unknown, options: SeamDelivery & { secret: string }) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const id = options.id ?? `msg_${randomUUID().replaceAll('-', '')}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const computed: Record<string, string | null> = {
    'svix-id': id,
    'svix-timestamp': String(timestamp),
    'svix-signature': signSvix(options.secret, id, timestamp, raw),
    ...options.headers,
  };
  const headers = Object.fromEntries(Object.entries(computed).filter((entry): entry is [string, string] => !!entry[1]));
  return seamRoute(
    new Request(`http://t/api/webhooks/seam/${tenantId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: options.rawOverride ?? raw,
    }),
    { params: Promise.resolve({ tenantId }) },
  );
}
