import { createHash } from 'node:crypto';
import { serviceStatement, statement } from '../db/tx';
import type { WebhookProvider } from '../db/generated/enums';

export const PROCESS_WEBHOOK_TASK = 'process_webhook_event';
export const WEBHOOK_MAX_ATTEMPTS = 10;

/**
 * Persists one verified delivery and queues its processing in the same transaction (one SQL call,
 * `app_webhook_store`); a delivery already stored (same provider and dedupe key) changes nothing
 * and reports `duplicate: true`. A Stripe Connect `account` is resolved to its tenant on the way.
 */
export async function storeWebhookEvent(input: {
  provider: WebhookProvider;
  dedupeKey: string;
  type: string;
  tenantId: string | null;
  stripeAccount?: string | null;
  payload: unknown;
  providerCreatedAt: Date | null;
}): Promise<{ id: string | null; duplicate: boolean }> {
  const rows = await serviceStatement(
    statement<{ id: string | null; duplicate: boolean }>(
      'select * from app_webhook_store($1::webhook_provider, $2, $3, $4::jsonb, $5::timestamptz, $6::uuid, $7)',
    ),
    [
      input.provider,
      input.dedupeKey,
      input.type,
      JSON.stringify(input.payload),
      input.providerCreatedAt,
      input.tenantId,
      input.stripeAccount ?? null,
    ],
  );
  return rows[0] ?? { id: null, duplicate: true };
}

/**
 * Keeps a verified delivery that cannot be parsed (`reason`: `too_deep`) as a `failed` event without
 * its body, once per body (its sha256 is the dedupe key), so the webhook log shows it came; nothing
 * processes it (`app_webhook_store_unparsed`).
 */
export async function storeUnparsedWebhookEvent(input: {
  provider: WebhookProvider;
  tenantId: string | null;
  raw: Uint8Array;
  reason: 'too_deep';
}): Promise<{ id: string | null; duplicate: boolean }> {
  const dedupeKey = `body:${createHash('sha256').update(input.raw).digest('hex')}`;
  const rows = await serviceStatement(
    statement<{ id: string | null; duplicate: boolean }>(
      'select * from app_webhook_store_unparsed($1::webhook_provider, $2, $3::uuid, $4)',
    ),
    [input.provider, dedupeKey, input.tenantId, input.reason],
  );
  return rows[0] ?? { id: null, duplicate: true };
}
