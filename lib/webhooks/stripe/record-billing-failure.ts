import type { Tx } from '../../db/tx';

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
  await tx.$executeRaw`insert into billing_failures (tenant_id, kind, day, detail)
    values (${input.tenantId}::uuid, ${input.kind},
            (${input.at}::timestamptz at time zone coalesce(${input.facilityTimeZone ?? null}::text, app_tenant_time_zone(${input.tenantId}::uuid)))::date,
            ${JSON.stringify(input.detail)}::jsonb)
    on conflict (tenant_id, kind, day) do nothing`;
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
  await tx.$executeRaw`insert into audit_events (tenant_id, actor_type, actor_id, actor_label, action, subject_type, subject_id, room_id, reason, metadata)
    values (${input.tenantId}::uuid, 'provider', ${input.stripeEventId}, 'Stripe', ${input.action}, 'reservation', ${input.subjectId}::uuid,
            ${input.roomId ?? null}::uuid, ${input.reason ?? null}, ${JSON.stringify({ ...input.metadata, stripeEventId: input.stripeEventId })}::jsonb)
    on conflict (tenant_id, action, subject_id, (metadata->>'stripeEventId')) where metadata ? 'stripeEventId' do nothing`;
}
