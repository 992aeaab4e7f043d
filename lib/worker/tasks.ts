import type { JobHelpers, TaskList } from 'graphile-worker';
import { z } from 'zod';
import { expireDueKeys } from '../keys/expire-keys';
import { programKeyOnLock, removeKeyFromLock } from '../keys/sync-vendor';
import { processWebhookEvent } from '../webhooks/process-event';
import { beat } from './heartbeat';

const ZKeyJobSchema = z.object({ tenantId: z.uuid(), keyId: z.uuid() });
const ZWebhookJobSchema = z.object({ eventId: z.uuid() });

function keyJob(run: typeof programKeyOnLock) {
  return async (payload: unknown, helpers: JobHelpers) => {
    const { tenantId, keyId } = ZKeyJobSchema.parse(payload);
    await run({ tenantId, keyId, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
  };
}

/** Every job the worker runs, by name. Jobs are added from SQL inside the transaction they belong to. */
export function taskList(workerId: string): TaskList {
  return {
    heartbeat: async () => {
      await beat(workerId);
    },
    vendor_program_key: keyJob(programKeyOnLock),
    vendor_remove_key: keyJob(removeKeyFromLock),
    process_webhook_event: async (payload, helpers) => {
      const { eventId } = ZWebhookJobSchema.parse(payload);
      await processWebhookEvent({ eventId, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
    },
    expire_keys: async (_payload, helpers) => {
      const expired = await expireDueKeys();
      if (expired > 0) helpers.logger.info(`expired ${expired} key(s)`);
    },
  };
}

/** Recurring jobs (graphile-worker crontab syntax). */
export const crontab = ['* * * * * heartbeat ?max=1', '* * * * * expire_keys ?max=1'].join('\n');
