import { openIncident } from '../../alerts/incidents';
import { asService } from '../../db/tx';
import type { WebhookOutcome } from '../types';

export type GroupReservations = { tenantId: string; reservationIds: string[] };

/**
 * Every reservation of every booking group holding `paymentIntentId` (plural by design). They must
 * all belong to one tenant, and that tenant must be the event's Connect account; otherwise the
 * event fails (`tenant_integrity` / `tenant_mismatch`), an incident opens and nothing is written.
 */
export async function resolveGroupReservations(input: {
  paymentIntentId: string;
  account: string | null;
  eventId: string;
}): Promise<GroupReservations | WebhookOutcome> {
  // By group id alone, not (tenant, group): a row that somehow crossed tenants must be seen, not joined away.
  const rows = await asService((tx) =>
    tx.$queryRaw<{ id: string; tenantId: string }[]>`select r.id, r.tenant_id as "tenantId" from reservations r
      where r.booking_group_id in (select g.id from booking_groups g where g.payment_intent_id = ${input.paymentIntentId})
      order by r.id`,
  );
  if (rows.length === 0) return { status: 'ignored', reason: 'no_matching_reservation' };
  const tenants = [...new Set(rows.map((r) => r.tenantId))];
  if (tenants.length > 1) {
    await asService(async (tx) => {
      for (const tenantId of tenants) {
        await openIncident(tx, {
          tenantId, conditionKey: `stripe_tenant_integrity:${input.paymentIntentId}`, kind: 'tenant_integrity', severity: 'critical',
          summary: `A Stripe payment intent resolves to reservations of ${tenants.length} tenants; nothing was applied.`,
          detail: { paymentIntentId: input.paymentIntentId, webhookEventId: input.eventId },
        });
      }
    });
    return { status: 'failed', reason: 'tenant_integrity' };
  }
  const tenantId = tenants[0]!;
  const tenant = await asService((tx) => tx.tenant.findMany({ where: { id: tenantId }, select: { stripeAccountId: true } }));
  const tenantAccount = tenant[0]?.stripeAccountId ?? null;
  if ((tenantAccount ?? null) !== (input.account ?? null)) {
    await asService((tx) =>
      openIncident(tx, {
        tenantId, conditionKey: `stripe_tenant_mismatch:${input.paymentIntentId}`, kind: 'tenant_mismatch', severity: 'critical',
        summary: 'A Stripe event from another account named this tenant’s payment intent; nothing was applied.',
        detail: { paymentIntentId: input.paymentIntentId, webhookEventId: input.eventId, eventAccount: input.account },
      }),
    );
    return { status: 'failed', reason: 'tenant_mismatch' };
  }
  return { tenantId, reservationIds: rows.map((r) => r.id) };
}

export function isOutcome(value: GroupReservations | WebhookOutcome): value is WebhookOutcome {
  return 'status' in value;
}
