import { effectStatement, runInTransaction, sqlLiteral, type Tx } from '../../db/tx';

/**
 * Records one billing failure per tenant, kind and day — the day in the property's time zone
 * (`timeZoneOf`: a facility's zone, else the tenant's first facility's, else UTC) — with
 * ON CONFLICT DO NOTHING, so a failure handled twice at once is still one row.
 */
export async function recordBillingFailure(
  tx: Tx,
  input: {
    tenantId: string;
    kind: string;
    at: Date;
    facilityTimeZone?: string | null;
    detail: Record<string, unknown>;
  },
): Promise<void> {
  const tenantId = sqlLiteral(input.tenantId, 'uuid');
  await runInTransaction(tx, [
    effectStatement(`insert into billing_failures (tenant_id, kind, day, detail)
    values (${tenantId}, ${sqlLiteral(input.kind, 'text')},
            (${sqlLiteral(input.at, 'timestamptz')} at time zone
               coalesce(${sqlLiteral(input.facilityTimeZone ?? null, 'text')}, app_tenant_time_zone(${tenantId})))::date,
            ${sqlLiteral(JSON.stringify(input.detail), 'jsonb')})
    on conflict (tenant_id, kind, day) do nothing`),
  ]);
}

/**
 * An audit row about a Stripe event and one subject, written once however many times (and however
 * concurrently) the event is handled: the unique index audit_events_once_per_stripe_event decides.
 */
export async function auditStripeEventOnce(
  tx: Tx,
  input: {
    tenantId: string;
    stripeEventId: string;
    action: string;
    subjectId: string;
    roomId?: string | null;
    reason?: string | null;
    metadata: Record<string, unknown>;
  },
): Promise<void> {
  await runInTransaction(tx, [
    effectStatement(`insert into audit_events (tenant_id, actor_type, actor_id, actor_label, action, subject_type, subject_id, room_id, reason, metadata)
    values (${sqlLiteral(input.tenantId, 'uuid')}, 'provider', ${sqlLiteral(input.stripeEventId, 'text')}, 'Stripe',
            ${sqlLiteral(input.action, 'text')}, 'reservation', ${sqlLiteral(input.subjectId, 'uuid')},
            ${sqlLiteral(input.roomId ?? null, 'uuid')}, ${sqlLiteral(input.reason ?? null, 'text')},
            ${sqlLiteral(JSON.stringify({ ...input.metadata, stripeEventId: input.stripeEventId }), 'jsonb')})
    on conflict (tenant_id, action, subject_id, (metadata->>'stripeEventId')) where metadata ? 'stripeEventId' do nothing`),
  ]);
}
