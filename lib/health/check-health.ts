import {
  openIncidentOnce,
  openPlatformIncident,
  recordPastPlatformIncident,
  resolveIncidentStatement,
  resolvePlatformIncident,
} from '../incidents/incidents';
import {
  asService,
  effectStatement,
  runInTransaction,
  serviceStatement,
  sqlLiteral,
  statement,
  type Tx,
} from '../db/tx';
import { logger } from '../log/logger';
import { installLockProvider } from '../locks/install-provider';
import type { LockProviderName } from '../locks/provider';
import { lockProviderFor } from '../locks/tenant-provider';

export const WORKER_STALE_AFTER_SECONDS = 60;

export type Health = { status: 'ok' | 'degraded'; checks: { db: 'ok' | 'failing'; worker: 'ok' | 'failing' } };

const INCIDENT = {
  worker: {
    conditionKey: 'health:worker',
    kind: 'health_worker',
    severity: 'critical' as const,
    summary: 'No job worker has reported in for a minute: keys are not being programmed or removed, and webhooks wait.',
  },
  database: {
    conditionKey: 'health:database',
    kind: 'health_database',
    severity: 'critical' as const,
    summary: 'The database could not be reached for a while; requests were refused meanwhile.',
  },
  lockProvider: {
    conditionKey: 'health:lock_provider',
    kind: 'health_lock_provider',
    severity: 'critical' as const,
    summary: 'The lock provider cannot be reached or refuses our credentials: new codes wait, removals are retried.',
  },
};

// When this process last saw the database fail; written down as an incident once it answers again.
let databaseDownSince: Date | null = null;

/**
 * The database answers, and some worker has beaten its heart within the last minute. A failing
 * check opens an install-wide incident (resolved when it passes again); a database that could not
 * be reached is recorded once it can, with when it went and came back.
 */
export async function checkHealth(): Promise<Health> {
  let db: 'ok' | 'failing' = 'failing';
  let worker: 'ok' | 'failing' = 'failing';
  try {
    worker = await asService(async (tx) => {
      const [rows] = await runInTransaction(tx, [
        statement<{ fresh: boolean }>(`select exists (
        select 1 from worker_heartbeats
         where beat_at > now() - make_interval(secs => ${sqlLiteral(WORKER_STALE_AFTER_SECONDS, 'float8')})) as fresh`),
      ]);
      const fresh = rows[0]?.fresh === true;
      // A worker that died while others live (the reaper's incident) stays told for a while.
      if (fresh) await resolveWorkerIncident(tx);
      else await openPlatformIncident(tx, INCIDENT.worker);
      if (databaseDownSince) await recordPastPlatformIncident(tx, { ...INCIDENT.database, since: databaseDownSince });
      return fresh ? 'ok' : 'failing';
    });
    db = 'ok';
    databaseDownSince = null;
  } catch (error) {
    databaseDownSince ??= new Date();
    logger.warn({ err: error }, 'health check: database failing');
  }
  return { status: db === 'ok' && worker === 'ok' ? 'ok' : 'degraded', checks: { db, worker } };
}

/** The lock provider answers and accepts our credentials (the worker runs this every minute). */
export async function checkLockProviderHealth(): Promise<'ok' | 'failing'> {
  const result = await installLockProvider().checkHealth({ correlationId: `health:${Date.now()}` });
  await asService((tx) =>
    result.ok
      ? resolvePlatformIncident(tx, INCIDENT.lockProvider)
      : openPlatformIncident(tx, { ...INCIDENT.lockProvider, detail: { lastCode: result.code } }),
  );
  return result.ok ? 'ok' : 'failing';
}

/** How long the incident of a worker that died (while others live) stays open once workers beat again. */
export const WORKER_DEATH_TOLD_MINUTES = 10;

/**
 * Resolves the install's worker incident now that a worker beats — unless it tells of a worker that
 * died (opened by a live worker's reaper) less than ten minutes ago: the install carries on, but
 * someone should see that a process died.
 */
async function resolveWorkerIncident(tx: Tx): Promise<void> {
  await runInTransaction(tx, [
    effectStatement(`update incidents set resolved_at = now(), updated_at = now()
    where tenant_id is null and condition_key = ${sqlLiteral(INCIDENT.worker.conditionKey, 'text')}
      and resolved_at is null
      and coalesce((detail->>'reapedAt')::timestamptz, '-infinity')
          < now() - make_interval(mins => ${sqlLiteral(WORKER_DEATH_TOLD_MINUTES, 'int')})`),
  ]);
}

/**
 * A live worker forgot worker processes whose heartbeat stopped (and released their jobs): the
 * install's worker incident is opened — or, open already, told of these too — naming them, in the
 * reaper's transaction. Install-wide incidents are mailed to nobody; every tenant's staff see it.
 */
export async function recordDeadWorkers(tx: Tx, dead: { workerId: string; beatAt: Date }[]): Promise<void> {
  if (dead.length === 0) return;
  const ids = sqlLiteral(JSON.stringify(dead.map((d) => d.workerId)), 'jsonb');
  const lastBeat = sqlLiteral(new Date(Math.max(...dead.map((d) => d.beatAt.getTime()))), 'timestamptz');
  const summary =
    'A job worker process stopped reporting in; the live workers took over its jobs. Until it is replaced, keys are programmed and webhooks processed by fewer workers.';
  await runInTransaction(tx, [
    effectStatement(`insert into incidents as i (tenant_id, condition_key, kind, severity, summary, detail)
    values (null, ${sqlLiteral(INCIDENT.worker.conditionKey, 'text')}, ${sqlLiteral(INCIDENT.worker.kind, 'text')}, 'critical',
            ${sqlLiteral(summary, 'text')},
            jsonb_build_object('deadWorkers', ${ids}, 'lastBeatAt', ${lastBeat}, 'reapedAt', now()))
    on conflict (condition_key) where tenant_id is null and resolved_at is null do update set
      occurrences = i.occurrences + 1, updated_at = now(),
      detail = i.detail || jsonb_build_object('deadWorkers', coalesce(i.detail->'deadWorkers', '[]') || ${ids},
                                              'lastBeatAt', ${lastBeat}, 'reapedAt', now())`),
  ]);
}

const PROVIDER_LABEL: Record<LockProviderName, string> = { seam: 'Seam', ttlock: 'TTLock', simulator: 'simulator' };

/**
 * Every tenant whose locks are on a provider of its own (Seam, TTLock: not the install's simulator) gets a job that
 * asks that provider with its own credentials (`check_tenant_provider`, a job per tenant and provider, not queued
 * twice): the worker's `check_tenant_providers` cron. One job each, not one loop over all: a provider that does not
 * answer costs its own tenant's job its timeout, not every tenant after it, and a stopping worker waits for one call.
 */
export async function enqueueTenantProviderChecks(): Promise<number> {
  const rows = await serviceStatement(
    statement<{ n: number }>(
      `select count(app_enqueue_job('check_tenant_provider', jsonb_build_object('tenantId', p.tenant_id, 'provider', p.provider),
                                    null, 'provider-health:' || p.tenant_id || ':' || p.provider, null, 1))::int as n
         from (select distinct tenant_id, provider::text as provider from locks where provider <> 'simulator') p`,
    ),
    [],
  );
  return rows[0]?.n ?? 0;
}

/**
 * One tenant's own provider, asked with its own credentials: one incident per tenant and provider while it does not
 * answer or refuses them (`health:lock_provider:<name>`, an occurrence per hour), resolved when it answers. The
 * install's own provider is `checkLockProviderHealth`.
 */
export async function checkTenantLockProvider(input: {
  tenantId: string;
  provider: Exclude<LockProviderName, 'simulator'>;
}): Promise<void> {
  const { tenantId, provider: name } = input;
  const provider = await lockProviderFor(tenantId, name);
  const result = provider.ok
    ? await provider.data.checkHealth({ correlationId: `health:${tenantId}:${name}` })
    : provider;
  const conditionKey = `health:lock_provider:${name}`;
  if (!result.ok)
    logger.warn({ tenantId, provider: name, providerCode: result.code }, 'tenant lock provider health check failed');
  await asService({ tenantId }, async (tx) => {
    if (result.ok) await runInTransaction(tx, [resolveIncidentStatement({ tenantId, conditionKey })]);
    else
      await openIncidentOnce(tx, {
        tenantId,
        conditionKey,
        kind: 'health_lock_provider',
        severity: 'critical',
        summary: `Your lock provider (${PROVIDER_LABEL[name]}) cannot be reached or refuses your credentials (${result.code}): new codes wait, removals are retried.`,
        detail: { provider: name, lastCode: result.code },
        occurrenceId: new Date().toISOString().slice(0, 13),
      });
  });
}
