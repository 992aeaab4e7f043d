import { openPlatformIncident, recordPastPlatformIncident, resolvePlatformIncident } from '../alerts/incidents';
import { asService } from '../db/tx';
import { logger } from '../log/logger';
import { getVendor } from '../locks/get-vendor';

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
      const rows = await tx.$queryRaw<{ fresh: boolean }[]>`select exists (
        select 1 from worker_heartbeats where beat_at > now() - make_interval(secs => ${WORKER_STALE_AFTER_SECONDS})) as fresh`;
      const fresh = rows[0]?.fresh === true;
      if (fresh) await resolvePlatformIncident(tx, INCIDENT.worker);
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
  const result = await getVendor().checkHealth({ correlationId: `health:${Date.now()}` });
  await asService((tx) =>
    result.ok
      ? resolvePlatformIncident(tx, INCIDENT.lockProvider)
      : openPlatformIncident(tx, { ...INCIDENT.lockProvider, detail: { lastCode: result.code } }),
  );
  return result.ok ? 'ok' : 'failing';
}
