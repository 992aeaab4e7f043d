import { withTenant } from '../db/tx';

export type IncidentView = {
  id: string;
  kind: string;
  severity: string;
  summary: string;
  occurrences: number;
  detail: Record<string, unknown>;
  openedAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
};

/**
 * A tenant's incidents, with those of the whole install (no tenant: a worker or the lock provider
 * down): open ones first (newest update first), then the most recently resolved.
 */
export async function listIncidents({
  tenantId,
  resolvedLimit = 50,
}: {
  tenantId: string;
  resolvedLimit?: number;
}): Promise<{ open: IncidentView[]; resolved: IncidentView[] }> {
  return withTenant({ tenantId }, async (tx) => {
    const select = {
      id: true,
      kind: true,
      severity: true,
      summary: true,
      occurrences: true,
      detail: true,
      openedAt: true,
      updatedAt: true,
      resolvedAt: true,
    } as const;
    const mine = { OR: [{ tenantId }, { tenantId: null }] };
    const open = await tx.incident.findMany({
      where: { ...mine, resolvedAt: null },
      select,
      orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
    });
    const resolved = await tx.incident.findMany({
      where: { ...mine, resolvedAt: { not: null } },
      select,
      orderBy: [{ resolvedAt: 'desc' }, { id: 'asc' }],
      take: resolvedLimit,
    });
    const cast = (rows: typeof open) =>
      rows.map((r) => ({ ...r, detail: (r.detail ?? {}) as Record<string, unknown> }));
    return { open: cast(open), resolved: cast(resolved) };
  });
}

export type BillingFailureView = {
  id: string;
  kind: string;
  day: Date;
  detail: Record<string, unknown>;
  createdAt: Date;
};

/** A tenant's billing failures (one per kind and day), newest first. */
export async function listBillingFailures({
  tenantId,
  limit = 90,
}: {
  tenantId: string;
  limit?: number;
}): Promise<BillingFailureView[]> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.billingFailure.findMany({ where: { tenantId }, orderBy: [{ day: 'desc' }, { kind: 'asc' }], take: limit }),
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    day: r.day,
    detail: (r.detail ?? {}) as Record<string, unknown>,
    createdAt: r.createdAt,
  }));
}
