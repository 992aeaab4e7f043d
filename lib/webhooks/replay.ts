import type { Actor } from '../audit/actor';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement, type Tx } from '../db/tx';
import type { WebhookProvider } from '../db/generated/enums';
import { PROCESS_WEBHOOK_TASK, WEBHOOK_MAX_ATTEMPTS } from './inbox';
import { writeAuditEvent } from '../audit/write-audit-event';

/**
 * Replays a provider's events received in `[from, to)` (optionally one tenant's): each goes back to
 * `received` and is queued again, audited `webhook.replayed` per tenant. Safe because processing
 * converges: a replay changes nothing that already happened.
 */
export async function replayWebhookEvents(input: {
  provider: WebhookProvider;
  tenantId?: string;
  from: Date;
  to: Date;
  actor: Actor;
}): Promise<{ requeued: number }> {
  const { actor } = input;
  const run = async (tx: Tx): Promise<{ requeued: number }> => {
    const [events] = await runInTransaction(tx, [
      statement<{ id: string; tenant_id: string | null }>(`update webhook_events set status = 'received', reason = null
      where provider = ${sqlLiteral(input.provider, 'webhook_provider')}
        and received_at >= ${sqlLiteral(input.from, 'timestamptz')}
          and received_at < ${sqlLiteral(input.to, 'timestamptz')}
        and (${sqlLiteral(input.tenantId ?? null, 'uuid')} is null or tenant_id = ${sqlLiteral(input.tenantId ?? null, 'uuid')})
      returning id, tenant_id`),
    ]);
    for (const event of events) {
      await runInTransaction(tx, [
        effectStatement(
          `select app_enqueue_job(${sqlLiteral(PROCESS_WEBHOOK_TASK, 'text')},
            ${sqlLiteral(JSON.stringify({ eventId: event.id }), 'jsonb')}, max_attempts => ${sqlLiteral(WEBHOOK_MAX_ATTEMPTS, 'int')})`,
        ),
      ]);
    }
    const perTenant = new Map<string, number>();
    for (const e of events) if (e.tenant_id) perTenant.set(e.tenant_id, (perTenant.get(e.tenant_id) ?? 0) + 1);
    for (const [tenantId, count] of perTenant) {
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'webhook.replayed',
        subject: { type: 'webhook_events' },
        metadata: {
          provider: input.provider,
          from: input.from.toISOString(),
          to: input.to.toISOString(),
          requeued: count,
        },
      });
    }
    return { requeued: events.length };
  };
  return input.tenantId ? asService({ tenantId: input.tenantId }, run) : asService(run);
}
