import { asService } from '../db/tx';

/**
 * Resolves one open incident of a tenant by hand (a manager acknowledging it); an already resolved
 * or unknown id changes nothing. Runs as the service role confined to the tenant by row-level
 * security, because `app_authenticated` may read incidents but not change them (42501); the
 * caller has checked the staff member's permission.
 */
export async function resolveIncidentByHand({
  tenantId,
  incidentId,
}: {
  tenantId: string;
  incidentId: string;
}): Promise<{ resolved: number }> {
  const { count } = await asService({ tenantId }, (tx) =>
    tx.incident.updateMany({
      where: { tenantId, id: incidentId, resolvedAt: null },
      data: { resolvedAt: new Date(), updatedAt: new Date() },
    }),
  );
  return { resolved: count };
}
