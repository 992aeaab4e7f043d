import { asService } from '../db/tx';

/** Records that this worker process is alive, with the job-queue workers it runs; /api/health reads it. */
export async function beat(workerId: string, queueWorkerIds: string[] = []): Promise<void> {
  await asService((tx) =>
    tx.$executeRaw`insert into worker_heartbeats (worker_id, beat_at, queue_worker_ids) values (${workerId}, now(), ${queueWorkerIds}::text[])
      on conflict (worker_id) do update set beat_at = excluded.beat_at, queue_worker_ids = excluded.queue_worker_ids`,
  );
}

export const DEAD_AFTER_SECONDS = 45;

/**
 * Worker processes whose heartbeat stopped (killed, crashed): their rows are removed and their
 * job-queue worker ids returned, so that their locked jobs can be released and run again.
 */
export async function reapDeadWorkers(): Promise<string[]> {
  const rows = await asService((tx) =>
    tx.$queryRaw<{ queue_worker_ids: string[] }[]>`delete from worker_heartbeats
      where beat_at < now() - make_interval(secs => ${DEAD_AFTER_SECONDS}) returning queue_worker_ids`,
  );
  return rows.flatMap((r) => r.queue_worker_ids);
}
