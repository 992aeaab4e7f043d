import type { Tx } from '../db/tx';

export type IncidentInput = {
  tenantId: string;
  /** The condition's natural key: one open incident per condition, updated while it lasts. */
  conditionKey: string;
  kind: string;
  severity: 'info' | 'warning' | 'critical';
  summary: string;
  detail?: Record<string, unknown>;
};

/** Opens the incident for a condition, or counts one more occurrence of the open one. */
export async function openIncident(tx: Tx, input: IncidentInput): Promise<void> {
  await tx.$executeRaw`insert into incidents (tenant_id, condition_key, kind, severity, summary, detail)
    values (${input.tenantId}::uuid, ${input.conditionKey}, ${input.kind}, ${input.severity}, ${input.summary}, ${JSON.stringify(input.detail ?? {})}::jsonb)
    on conflict (tenant_id, condition_key) where resolved_at is null
    do update set occurrences = incidents.occurrences + 1, updated_at = now(), summary = excluded.summary, detail = excluded.detail,
      severity = excluded.severity`;
}

/** Resolves the open incident of a condition, if any. */
export async function resolveIncident(tx: Tx, input: { tenantId: string; conditionKey: string }): Promise<void> {
  await tx.$executeRaw`update incidents set resolved_at = now(), updated_at = now()
    where tenant_id = ${input.tenantId}::uuid and condition_key = ${input.conditionKey} and resolved_at is null`;
}
