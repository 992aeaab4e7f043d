import type { TaskList } from 'graphile-worker';
import { beat } from './heartbeat';

/** Every job the worker runs, by name. Jobs are added from SQL inside the transaction they belong to. */
export function taskList(workerId: string): TaskList {
  return {
    heartbeat: async () => {
      await beat(workerId);
    },
  };
}

/** Recurring jobs (graphile-worker crontab syntax). */
export const crontab = ['* * * * * heartbeat ?max=1'].join('\n');
