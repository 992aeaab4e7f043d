import { asService } from '../db/tx';

export const WORKER_STALE_AFTER_SECONDS = 60;

export type Health = { status: 'ok' | 'degraded'; checks: { db: 'ok' | 'failing'; worker: 'ok' | 'failing' } };

/** The database answers, and some worker has beaten its heart within the last minute. */
export async function checkHealth(): Promise<Health> {
  let db: 'ok' | 'failing' = 'failing';
  let worker: 'ok' | 'failing' = 'failing';
  try {
    const rows = await asService((tx) =>
      tx.$queryRaw<{ fresh: boolean }[]>`select exists (
        select 1 from worker_heartbeats where beat_at > now() - make_interval(secs => ${WORKER_STALE_AFTER_SECONDS})) as fresh`,
    );
    db = 'ok';
    worker = rows[0]?.fresh ? 'ok' : 'failing';
  } catch {
    db = 'failing';
  }
  return { status: db === 'ok' && worker === 'ok' ? 'ok' : 'degraded', checks: { db, worker } };
}
