import { asService, effectStatement, runInTransaction, sqlArray, sqlLiteral, statement } from '../db/tx';
import { recordDeadWorkers } from '../health/check-health';

/**
 * Records that this worker process is alive, with the job-queue workers it runs (every beat names
 * them all: a dead process's jobs are released by these ids); /api/health reads the time.
 */
export async function beat(workerId: string, queueWorkerIds: readonly string[]): Promise<void> {
  await asService((tx) =>
    runInTransaction(tx, [
      effectStatement(`insert into worker_heartbeats (worker_id, beat_at, queue_worker_ids)
      values (${sqlLiteral(workerId, 'text')}, now(), ${sqlArray(queueWorkerIds, 'text')})
      on conflict (worker_id) do update set beat_at = excluded.beat_at, queue_worker_ids = excluded.queue_worker_ids`),
    ]),
  );
}

export const DEAD_AFTER_SECONDS = 45;

/**
 * Forgets worker processes whose heartbeat stopped (killed, crashed) and releases the jobs they
 * held, in one transaction (SQL `app_reap_dead_workers`): a reaper that dies half way forgets
 * nothing. The same transaction opens the install's worker incident naming them: a dead worker is
 * noticed by the live ones, not only when someone asks /api/health. Returns the released job-queue worker ids.
 */
export async function reapDeadWorkers(): Promise<string[]> {
  return asService(async (tx) => {
    // Which processes this reap forgets (another reaper waiting here finds them gone), so the
    // install's worker incident can name them in the same transaction.
    const [dead] = await runInTransaction(tx, [
      statement<{ workerId: string; beatAt: Date }>(`
      select worker_id as "workerId", beat_at as "beatAt" from worker_heartbeats
       where beat_at < now() - make_interval(secs => ${sqlLiteral(DEAD_AFTER_SECONDS, 'int')}) order by worker_id for update`),
    ]);
    const [rows] = await runInTransaction(tx, [
      statement<{ ids: string[] }>(`select app_reap_dead_workers(${sqlLiteral(DEAD_AFTER_SECONDS, 'int')}) as ids`),
    ]);
    await recordDeadWorkers(tx, dead);
    return rows[0]?.ids ?? [];
  });
}

/**
 * A worker that stops cleanly (its jobs drained) removes its own heartbeat: it is not a process that
 * died, and no live worker reports it as one.
 */
export async function forgetWorker(workerId: string): Promise<void> {
  await asService((tx) =>
    runInTransaction(tx, [
      effectStatement(`delete from worker_heartbeats where worker_id = ${sqlLiteral(workerId, 'text')}`),
    ]),
  );
}
