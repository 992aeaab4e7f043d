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
