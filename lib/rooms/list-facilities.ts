import { withTenant } from '../db/tx';

export type FacilitySummary = { id: string; name: string; timeZone: string };

/** Every facility of one tenant with its IANA time zone, by name. */
export async function listFacilities({ tenantId }: { tenantId: string }): Promise<FacilitySummary[]> {
  return withTenant({ tenantId }, (tx) =>
    tx.facility.findMany({
      where: { tenantId },
      select: { id: true, name: true, timeZone: true },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    }),
  );
}

/**
 * The zone a tenant's staff pages show times in: its facility's (a tenant has one as a rule, else
 * the first by name), UTC for a tenant with none yet. Pages say which zone they use.
 */
export async function tenantTimeZone({ tenantId }: { tenantId: string }): Promise<string> {
  const [first] = await listFacilities({ tenantId });
  return first?.timeZone ?? 'UTC';
}
