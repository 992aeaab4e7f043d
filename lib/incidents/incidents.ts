import { effectStatement, runInTransaction, sqlArray, sqlLiteral, statement, type Statement, type Tx } from '../db/tx';

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
export function openIncidentStatement(input: IncidentInput): Statement<void> {
  return effectStatement(`insert into incidents (tenant_id, condition_key, kind, severity, summary, detail)
    values (${sqlLiteral(input.tenantId, 'uuid')}, ${sqlLiteral(input.conditionKey, 'text')},
      ${sqlLiteral(input.kind, 'text')},
      ${sqlLiteral(input.severity, 'text')}, ${sqlLiteral(input.summary, 'text')},
      ${sqlLiteral(JSON.stringify(input.detail ?? {}), 'jsonb')})
    on conflict (tenant_id, condition_key) where resolved_at is null
    do update set occurrences = incidents.occurrences + 1, updated_at = now(), summary = excluded.summary, detail = excluded.detail,
      severity = excluded.severity`);
}

/** Opens the incident for a condition, or counts one more occurrence of the open one. */
export async function openIncident(tx: Tx, input: IncidentInput): Promise<void> {
  await runInTransaction(tx, [openIncidentStatement(input)]);
}

/** How many occurrence ids an incident remembers, so a replayed occurrence is not counted twice. */
const REMEMBERED_OCCURRENCES = 100;

/**
 * Opens the incident for a condition, or counts one more occurrence of the open one — once per
 * `occurrenceId` (a webhook event): a retried or replayed occurrence changes nothing twice.
 */
export async function openIncidentOnce(tx: Tx, input: IncidentInput & { occurrenceId: string }): Promise<void> {
  const detail = JSON.stringify({ ...input.detail, occurrenceIds: [input.occurrenceId] });
  const occurrenceId = sqlLiteral(input.occurrenceId, 'text');
  await runInTransaction(tx, [
    effectStatement(`insert into incidents as i (tenant_id, condition_key, kind, severity, summary, detail)
    values (${sqlLiteral(input.tenantId, 'uuid')}, ${sqlLiteral(input.conditionKey, 'text')},
      ${sqlLiteral(input.kind, 'text')},
      ${sqlLiteral(input.severity, 'text')}, ${sqlLiteral(input.summary, 'text')}, ${sqlLiteral(detail, 'jsonb')})
    on conflict (tenant_id, condition_key) where resolved_at is null
    do update set occurrences = i.occurrences + 1, updated_at = now(), summary = excluded.summary, severity = excluded.severity,
      detail = excluded.detail || jsonb_build_object('occurrenceIds',
        (select jsonb_agg(o) from (select o from jsonb_array_elements(coalesce(i.detail->'occurrenceIds', '[]')) o
                                    offset greatest(jsonb_array_length(coalesce(i.detail->'occurrenceIds', '[]')) - ${sqlLiteral(REMEMBERED_OCCURRENCES - 1, 'int')}, 0)) kept)
          || jsonb_build_array(${occurrenceId}))
    where not coalesce(i.detail->'occurrenceIds', '[]') ? ${occurrenceId}`),
  ]);
}

/**
 * Resolves the open incident of a condition, if any: one statement (values as typed literals), run in
 * a transaction (`runInTransaction`) or with others in one round trip (`runStatements`).
 */
export function resolveIncidentStatement(input: { tenantId: string; conditionKey: string }): Statement<void> {
  return effectStatement(`update incidents set resolved_at = now(), updated_at = now()
    where tenant_id = ${sqlLiteral(input.tenantId, 'uuid')}
      and condition_key = ${sqlLiteral(input.conditionKey, 'text')}
      and resolved_at is null`);
}

/** The moments a run of failures is reported again: the incident opens at 1 and is raised at 5 and 20. */
export const FAILURE_MILESTONES = [1, 5, 20] as const;

/**
 * Counts one more consecutive failing delivery of a source (provider + tenant) on its single open
 * incident: opened at the first failing event, raised (severity, summary, updated_at) at the 5th and
 * the 20th. Counted once per event (`eventId`): the queue's retries and a replay of an event that
 * failed already are the same delivery, not one more in the run (the incident remembers the last
 * 100 event ids it counted).
 */
export async function recordSourceFailure(
  tx: Tx,
  input: { tenantId: string; source: string; label: string; reason: string; eventId: string },
): Promise<number> {
  const detail = JSON.stringify({ lastReason: input.reason, eventIds: [input.eventId] });
  const tenantId = sqlLiteral(input.tenantId, 'uuid');
  const conditionKey = sqlLiteral(`webhook_processing:${input.source}`, 'text');
  const reason = sqlLiteral(input.reason, 'text');
  const eventId = sqlLiteral(input.eventId, 'text');
  const [rows] = await runInTransaction(tx, [
    statement<{ occurrences: number }>(`
    with counted as (
      insert into incidents as i (tenant_id, condition_key, kind, severity, summary, detail)
      values (${tenantId}, ${conditionKey}, 'webhook_processing_failed', 'warning',
              ${sqlLiteral(`Processing ${input.label} webhooks failed (${input.reason}).`, 'text')},
              ${sqlLiteral(detail, 'jsonb')})
      on conflict (tenant_id, condition_key) where resolved_at is null do update set
        occurrences = i.occurrences + 1,
        severity = case when i.occurrences + 1 >= 5 then 'critical' else i.severity end,
        summary = case when i.occurrences + 1 in (5, 20)
                       then ${sqlLiteral(`${input.label} webhooks have failed `, 'text')} || (i.occurrences + 1) || ' times in a row (last: ' || ${reason} || ').'
                       else i.summary end,
        detail = i.detail || jsonb_build_object('lastReason', ${reason}, 'eventIds',
          (select coalesce(jsonb_agg(o), '[]') from (select o from jsonb_array_elements(coalesce(i.detail->'eventIds', '[]')) o
                                      offset greatest(jsonb_array_length(coalesce(i.detail->'eventIds', '[]')) - ${sqlLiteral(REMEMBERED_OCCURRENCES - 1, 'int')}, 0)) kept)
            || jsonb_build_array(${eventId})),
        updated_at = case when i.occurrences + 1 in (5, 20) then now() else i.updated_at end
      where not coalesce(i.detail->'eventIds', '[]') ? ${eventId}
      returning occurrences
    )
    select occurrences from counted
    union all
    select occurrences from incidents
     where tenant_id = ${tenantId} and condition_key = ${conditionKey}
       and resolved_at is null and not exists (select 1 from counted)`),
  ]);
  return rows[0]?.occurrences ?? 0;
}

/** A success of the source ends its run of failures: the statement that resolves its open incident, if any. */
export function sourceSuccessStatement(input: { tenantId: string; source: string }): Statement<void> {
  return resolveIncidentStatement({ tenantId: input.tenantId, conditionKey: `webhook_processing:${input.source}` });
}

/**
 * Counts a key against the one open incident of a condition (a lock and a kind of failure), opening
 * it if needed: the incident lists the keys it affects instead of one incident per key.
 */
export async function addKeyToIncident(tx: Tx, input: IncidentInput & { keyId: string }): Promise<void> {
  await runInTransaction(tx, [
    effectStatement(`select app_incident_add_key(${sqlLiteral(input.tenantId, 'uuid')},
      ${sqlLiteral(input.conditionKey, 'text')},
    ${sqlLiteral(input.kind, 'text')}, ${sqlLiteral(input.severity, 'text')}, ${sqlLiteral(input.summary, 'text')},
    ${sqlLiteral(input.keyId, 'uuid')}, ${sqlLiteral(JSON.stringify(input.detail ?? {}), 'jsonb')})`),
  ]);
}

/**
 * Takes a key off the open incidents of these conditions; an incident left with no key is resolved.
 * One statement, run in a transaction or with others in one round trip.
 */
export function clearKeyFromIncidentsStatement(input: {
  tenantId: string;
  conditionKeys: string[];
  keyId: string;
}): Statement<void> {
  return effectStatement(`select app_incident_clear_key(${sqlLiteral(input.tenantId, 'uuid')},
    ${sqlArray(input.conditionKeys, 'text')},
    ${sqlLiteral(input.keyId, 'uuid')})`);
}

export type PlatformIncidentInput = Omit<IncidentInput, 'tenantId'>;

/** Opens an incident of the whole install (no tenant: every tenant's staff see it), or leaves the open one be. */
export async function openPlatformIncident(tx: Tx, input: PlatformIncidentInput): Promise<void> {
  await runInTransaction(tx, [
    effectStatement(`insert into incidents (tenant_id, condition_key, kind, severity, summary, detail)
    values (null, ${sqlLiteral(input.conditionKey, 'text')}, ${sqlLiteral(input.kind, 'text')},
      ${sqlLiteral(input.severity, 'text')},
      ${sqlLiteral(input.summary, 'text')}, ${sqlLiteral(JSON.stringify(input.detail ?? {}), 'jsonb')})
    on conflict (condition_key) where tenant_id is null and resolved_at is null do nothing`),
  ]);
}

/** Resolves the open incident of an install-wide condition, if any. */
export async function resolvePlatformIncident(tx: Tx, input: { conditionKey: string }): Promise<void> {
  await runInTransaction(tx, [
    effectStatement(`update incidents set resolved_at = now(), updated_at = now()
    where tenant_id is null and condition_key = ${sqlLiteral(input.conditionKey, 'text')} and resolved_at is null`),
  ]);
}

/**
 * Writes down, once it can, an install-wide condition that lasted from `since` until now (a database
 * outage: nothing could be written while it lasted), unless one was written for the same episode.
 */
export async function recordPastPlatformIncident(
  tx: Tx,
  input: PlatformIncidentInput & { since: Date },
): Promise<void> {
  const since = sqlLiteral(input.since, 'timestamptz');
  await runInTransaction(tx, [
    effectStatement(`insert into incidents (tenant_id, condition_key, kind, severity, summary, detail, opened_at, resolved_at)
    select null, ${sqlLiteral(input.conditionKey, 'text')}, ${sqlLiteral(input.kind, 'text')},
      ${sqlLiteral(input.severity, 'text')},
      ${sqlLiteral(input.summary, 'text')},
      ${sqlLiteral(JSON.stringify({ ...input.detail, from: input.since.toISOString() }), 'jsonb')},
           ${since}, now()
    where not exists (select 1 from incidents where tenant_id is null and kind = ${sqlLiteral(input.kind, 'text')}
                        and opened_at > ${since} - interval '2 minutes')`),
  ]);
}
