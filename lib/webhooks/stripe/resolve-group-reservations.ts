import { openIncident } from '../../incidents/incidents';
import { asService, runInTransaction, sqlLiteral, statement } from '../../db/tx';
import type { WebhookOutcome } from '../types';

export type GroupReservations = {
  tenantId: string;
  reservationIds: string[];
  /** The groups holding the intent, with what they expect to be paid (null when unknown). */
  groups: { id: string; amountCents: number | null; currency: string | null }[];
};

type Row = {
  reservationId: string;
  reservationTenantId: string;
  groupId: string;
  groupTenantId: string;
  amountCents: number | null;
  currency: string | null;
  tenantAccount: string | null;
};

/**
 * The reservations of the booking groups holding `paymentIntentId` in the event's tenant. Intent ids
 * are unique within a tenant only, so the tenant comes from the event's Connect `account` (a
 * platform event, without one, belongs to tenants without an account). Fails closed, with an
 * incident and nothing written: `tenant_mismatch` when only other tenants hold the intent,
 * `tenant_integrity` when the tenant is ambiguous or a reservation sits in another tenant's group.
 */
export async function resolveGroupReservations(input: {
  paymentIntentId: string;
  account: string | null;
  eventId: string;
}): Promise<GroupReservations | WebhookOutcome> {
  // Every tenant holding the intent, from the global lookup (stripe_payment_intents, docs/SCALING.md);
  // then each tenant's groups. Reservations are joined by group id alone, not (tenant, group): a row
  // that somehow crossed tenants must be seen, not joined away (the composite foreign key forbids it;
  // this deliberate cross-tenant read is listed in docs/SCALING.md).
  const rows = await asService(async (tx) => {
    const holders = await tx.stripePaymentIntent.findMany({
      where: { paymentIntentId: input.paymentIntentId },
      select: { tenantId: true },
      orderBy: { tenantId: 'asc' },
    });
    const found: Row[] = [];
    for (const { tenantId } of holders) {
      const [rows] = await runInTransaction(tx, [
        statement<Row>(`select r.id as "reservationId", r.tenant_id as "reservationTenantId",
          g.id as "groupId", g.tenant_id as "groupTenantId", g.amount_cents as "amountCents", g.currency,
          t.stripe_account_id as "tenantAccount"
        from booking_groups g join tenants t on t.id = g.tenant_id
        join reservations r on r.booking_group_id = g.id
        where g.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
          and g.payment_intent_id = ${sqlLiteral(input.paymentIntentId, 'text')}
        order by r.id`),
      ]);
      found.push(...rows);
    }
    return found;
  });
  if (rows.length === 0) return { status: 'ignored', reason: 'no_matching_reservation' };
  const account = input.account ?? null;
  const mine = rows.filter((r) => r.tenantAccount === account);
  if (mine.length === 0) {
    const others = [...new Set(rows.map((r) => r.groupTenantId))];
    await asService(async (tx) => {
      for (const tenantId of others) {
        await openIncident(tx, {
          tenantId,
          conditionKey: `stripe_tenant_mismatch:${input.paymentIntentId}`,
          kind: 'tenant_mismatch',
          severity: 'critical',
          summary: 'A Stripe event from another account named this tenant’s payment intent; nothing was applied.',
          detail: { paymentIntentId: input.paymentIntentId, webhookEventId: input.eventId, eventAccount: account },
        });
      }
    });
    return { status: 'failed', reason: 'tenant_mismatch' };
  }
  const tenants = [...new Set(mine.flatMap((r) => [r.groupTenantId, r.reservationTenantId]))];
  if (tenants.length > 1) {
    await asService(async (tx) => {
      for (const tenantId of tenants) {
        await openIncident(tx, {
          tenantId,
          conditionKey: `stripe_tenant_integrity:${input.paymentIntentId}`,
          kind: 'tenant_integrity',
          severity: 'critical',
          summary: `A Stripe payment intent resolves to reservations of ${tenants.length} tenants; nothing was applied.`,
          detail: { paymentIntentId: input.paymentIntentId, webhookEventId: input.eventId },
        });
      }
    });
    return { status: 'failed', reason: 'tenant_integrity' };
  }
  const groups = new Map(
    mine.map((r) => [r.groupId, { id: r.groupId, amountCents: r.amountCents, currency: r.currency }]),
  );
  return { tenantId: tenants[0]!, reservationIds: mine.map((r) => r.reservationId), groups: [...groups.values()] };
}

export function isOutcome(value: GroupReservations | WebhookOutcome): value is WebhookOutcome {
  return 'status' in value;
}
