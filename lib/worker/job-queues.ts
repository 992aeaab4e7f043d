import type { ClientBase } from 'pg';

/**
 * Removes the named queues that hold no job and are not locked, in graphile-worker's own schema: it keeps every
 * queue it ever made (one per key, per iCal feed, per tenant's door reads), and each job fetch locks every free
 * queue, so without this a fetch costs more with every stay the install ever had (decision 038). graphile-worker's
 * `cleanup` does the same delete; this one first locks the table against writers (SHARE ROW EXCLUSIVE), because
 * `add_job` makes a queue in one statement and refers to it in the next: a queue removed in between would give the
 * job no queue, and a key's jobs would no longer run one at a time. `add_job`s and fetches wait for the delete (a few
 * milliseconds) instead; behind a long transaction it gives up after a second and tries again at its next run.
 * Returns how many queues it removed.
 */
export async function removeIdleJobQueues(client: ClientBase): Promise<number> {
  await client.query('begin');
  try {
    await client.query(`set local lock_timeout = '1s'`);
    await client.query('lock table graphile_worker._private_job_queues in share row exclusive mode');
    const { rowCount } = await client.query(
      `delete from graphile_worker._private_job_queues q
        where q.locked_at is null
          and not exists (select 1 from graphile_worker._private_jobs j where j.job_queue_id = q.id)`,
    );
    await client.query('commit');
    return rowCount ?? 0;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}
