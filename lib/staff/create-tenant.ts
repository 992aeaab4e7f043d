import { asService } from '../db/tx';

/** Creates a tenant (optionally bound to a Stripe Connect account). */
export async function createTenant(input: { name: string; stripeAccountId?: string | null }): Promise<{ id: string }> {
  return asService((tx) =>
    tx.tenant.create({
      data: { name: input.name, stripeAccountId: input.stripeAccountId ?? null },
      select: { id: true },
    }),
  );
}
