import { recordSourceFailure, sourceSuccessStatement } from '../incidents/incidents';
import { asService, effectStatement, runStatements, serviceStatement, statement, sqlLiteral } from '../db/tx';
import { logger } from '../log/logger';
import { handlerFor } from './registry';
import type { StoredWebhookEvent, WebhookOutcome } from './types';

/**
 * Processes one stored event (the job `process_webhook_event`): runs its handler and records the
 * outcome, reason and attempt. A thrown error is recorded as `failed` and rethrown so the queue
 * retries with backoff; on the last attempt the event becomes `dead`. Handlers converge, so a
 * retry or a replay changes nothing twice.
 */
export async function processWebhookEvent({
  eventId,
  attempt,
  maxAttempts,
}: {
  eventId: string;
  attempt: number;
  maxAttempts: number;
}): Promise<void> {
  const [event] = await serviceStatement(
    statement<StoredWebhookEvent>(`select id, provider, type, tenant_id as "tenantId", payload, provider_created_at as "providerCreatedAt", received_at as "receivedAt"
       from webhook_events where id = $1::uuid`),
    [eventId],
  );
  if (!event) return;
  const handler = handlerFor(event.provider, event.type);
  let outcome: WebhookOutcome;
  try {
    outcome = handler ? await handler(event) : { status: 'ignored', reason: 'unhandled_event_type' };
  } catch (error) {
    const final = attempt >= maxAttempts;
    const reason = (error as { code?: string }).code ?? (error as Error).name ?? 'error';
    logger.warn({ eventId, provider: event.provider, type: event.type, attempt, reason }, 'webhook processing failed');
    await record(eventId, { status: final ? 'dead' : 'failed', reason: `${reason}` }, attempt);
    if (event.tenantId) {
      await asService({ tenantId: event.tenantId }, (tx) =>
        recordSourceFailure(tx, {
          tenantId: event.tenantId!,
          source: event.provider,
          label: PROVIDER_LABEL[event.provider],
          reason: String(reason),
          eventId,
        }),
      );
    }
    if (!final) throw error;
    return;
  }
  if (outcome.status === 'rejected' || outcome.status === 'failed') {
    logger.warn(
      { eventId, provider: event.provider, type: event.type, status: outcome.status, reason: outcome.reason },
      'webhook event not applied',
    );
  }
  // The outcome and the source's success (its run of failures ended) together: one transaction, one round trip.
  await record(eventId, outcome, attempt, event.tenantId ? { tenantId: event.tenantId, source: event.provider } : null);
}

const PROVIDER_LABEL = {
  stripe: 'Stripe',
  calendly: 'Calendly',
  cal: 'Cal.com',
  acuity: 'Acuity',
  seam: 'Seam',
} as const;

async function record(
  eventId: string,
  outcome: { status: string; reason?: string },
  attempt: number,
  succeeded: { tenantId: string; source: string } | null = null,
): Promise<void> {
  await runStatements({ role: 'app_service', tenantId: succeeded?.tenantId }, [
    effectStatement(`update webhook_events set status = ${sqlLiteral(outcome.status, 'webhook_status')},
       reason = ${sqlLiteral(outcome.reason ?? null, 'text')}, attempts = greatest(attempts, ${sqlLiteral(attempt, 'int')}),
       processed_at = case when ${sqlLiteral(outcome.status, 'webhook_status')} = 'failed' then processed_at else now() end
     where id = ${sqlLiteral(eventId, 'uuid')}`),
    ...(succeeded ? [sourceSuccessStatement(succeeded)] : []),
  ]);
}
