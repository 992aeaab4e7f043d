import { asService } from '../db/tx';

/** Records that this worker is alive; /api/health reads it. */
export async function beat(workerId: string): Promise<void> {
  await asService((tx) =>
    tx.$executeRaw`insert into worker_heartbeats (worker_id, beat_at) values (${workerId}, now())
      on conflict (worker_id) do update set beat_at = excluded.beat_at`,
  );
}
