import { asService } from '../db/tx';

/**
 * Records that this worker process is alive, with the job-queue workers it runs (every beat names
 * them all: a dead process's jobs are released by these ids); /api/health reads the time.
 */
export async function beat(workerId: string, queueWorkerIds: readonly string[]): Promise<void> {
  await asService(
    (tx) =>
      tx.$executeRaw`insert into worker_heartbeats (worker_id, beat_at, queue_worker_ids) values (${workerId}, now(), ${[...queueWorkerIds]}::text[])
      on conflict (worker_id) do update set beat_at = excluded.beat_at, queue_worker_ids = excluded.queue_worker_ids`,
  );
}

export const DEAD_AFTER_SECONDS = 45;

/**
 * Forgets worker processes whose heartbeat stopped (killed, crashed) and releases the jobs they
 * held, in one transaction (SQL `app_reap_dead_workers`): a reaper that dies half way forgets
 * nothing. Returns the released job-queue worker ids.
 */
export async function reapDeadWorkers(): Promise<string[]> {
  const rows = await asService(
    (tx) => tx.$queryRaw<{ ids: string[] }[]>`select app_reap_dead_workers(${DEAD_AFTER_SECONDS}::int) as ids`,
  );
  return rows[0]?.ids ?? [];
}
