import { asService } from '../db/tx';
import type { WebhookProvider } from '../db/generated/enums';

export const PROCESS_WEBHOOK_TASK = 'process_webhook_event';
export const WEBHOOK_MAX_ATTEMPTS = 10;

/**
 * Persists one verified delivery and queues its processing in the same transaction; a delivery
 * already stored (same provider and dedupe key) changes nothing and reports `duplicate: true`.
 */
export async function storeWebhookEvent(input: {
  provider: WebhookProvider;
  dedupeKey: string;
  type: string;
  tenantId: string | null;
  payload: unknown;
  providerCreatedAt: Date | null;
}): Promise<{ id: string | null; duplicate: boolean }> {
  return asService(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, provider_created_at)
      values (${input.tenantId}::uuid, ${input.provider}::webhook_provider, ${input.dedupeKey}, ${input.type}, ${JSON.stringify(input.payload)}::jsonb, ${input.providerCreatedAt}::timestamptz)
      on conflict (provider, dedupe_key) do nothing returning id`;
    if (rows.length === 0) return { id: null, duplicate: true };
    const id = rows[0]!.id;
    await tx.$executeRaw`select app_enqueue_job(${PROCESS_WEBHOOK_TASK}, ${JSON.stringify({ eventId: id })}::jsonb,
      max_attempts => ${WEBHOOK_MAX_ATTEMPTS}::int)`;
    return { id, duplicate: false };
  });
}
