import type { JobHelpers, TaskList } from 'graphile-worker';
import { z } from 'zod';
import { checkLockProviderHealth, checkTenantLockProvider, enqueueTenantProviderChecks } from '../health/check-health';
import { sweepBookingRequests } from '../booking-site/booking-requests';
import { releaseBookingHold } from '../booking-site/checkout';
import { releaseStayExtension } from '../stays/extend-stay';
import { checkBackupNeeded } from '../keys/backup-codes';
import { expireDueKeys } from '../keys/expire-keys';
import { checkOutEndedStays } from '../stays/auto-check-out';
import { enqueueDueFeeds, syncFeed } from '../ical/sync-feed';
import { retryFailedDoors } from '../locks/retry-failed-doors';
import { programKeyOnLock, removeKeyFromLock, rewindowKeyOnLock } from '../locks/sync-provider';
import { checkTenantLocks, enqueueLockChecks } from '../locks/reconcile';
import { removeIdleJobQueues } from './job-queues';
import { enqueueLockRecordPolls, pollLockRecords, pollTenantLockRecords } from '../locks/poll-lock-records';
import { confirmRemoteUnlock } from '../locks/confirm-remote-unlock';
import { sendAccountMessage } from '../messages/send-account-message';
import { sendMessage } from '../messages/send-message';
import { deliverTestMail, ZTestMailJobSchema } from '../messages/send-test-mail';
import { pruneRateLimits } from '../ratelimit/prune-rate-limits';
import { sweepSignUps } from '../staff/sign-up';
import { sweepGuestRegisters } from '../registration/sweep-registers';
import { processWebhookEvent } from '../webhooks/process-event';
import { beat, reapDeadWorkers } from './heartbeat';

const ZKeyJobSchema = z.object({ tenantId: z.uuid(), keyId: z.uuid() });
const ZWebhookJobSchema = z.object({ eventId: z.uuid() });
const ZMessageJobSchema = z.object({ tenantId: z.uuid(), messageId: z.uuid() });
const ZAccountMessageJobSchema = z.object({ messageId: z.uuid() });
const ZHoldJobSchema = z.object({ tenantId: z.uuid(), bookingGroupId: z.uuid() });
const ZExtensionJobSchema = z.object({ tenantId: z.uuid(), extensionId: z.uuid() });
const ZFeedJobSchema = z.object({ tenantId: z.uuid(), feedId: z.uuid() });
// A tenant's due locks, or (a job queued before reads went by tenant) one lock.
const ZLockJobSchema = z.object({ tenantId: z.uuid(), lockId: z.uuid().optional() });
const ZTenantJobSchema = z.object({ tenantId: z.uuid() });
const ZTenantProviderJobSchema = z.object({ tenantId: z.uuid(), provider: z.enum(['seam', 'ttlock']) });
const ZRemoteUnlockJobSchema = z.object({ tenantId: z.uuid(), remoteUnlockId: z.uuid() });

function keyJob(run: typeof programKeyOnLock) {
  return async (payload: unknown, helpers: JobHelpers) => {
    const { tenantId, keyId } = ZKeyJobSchema.parse(payload);
    await run({ tenantId, keyId, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
  };
}

/**
 * Every job the worker runs, by name. Jobs are added from SQL inside the transaction they belong to.
 * `queueWorkerIds` reads the process's job-queue pools at the moment of each beat.
 */
export function taskList(workerId: string, queueWorkerIds: () => readonly string[]): TaskList {
  return {
    // The once-a-minute beat proves the queue itself runs jobs; it names the pools like every beat.
    heartbeat: async () => {
      await beat(workerId, queueWorkerIds());
    },
    vendor_program_key: keyJob(programKeyOnLock),
    vendor_remove_key: keyJob(removeKeyFromLock),
    // A stay's new dates: each door's code is set again with the key's new window.
    vendor_rewindow_key: keyJob(rewindowKeyOnLock),
    // Shortly before a stay key must work: a backup code stands in if its code is not on the lock yet.
    key_backup_check: async (payload, helpers) => {
      const outcome = await checkBackupNeeded(ZKeyJobSchema.parse(payload));
      if (outcome.kind !== 'not_needed') helpers.logger.info(`backup check: ${outcome.kind}`);
    },
    // Failed doors whose next try is due (backing off, the last one before the stay starts) go again.
    retry_failed_doors: async (_payload, helpers) => {
      const { doors } = await retryFailedDoors();
      if (doors > 0) helpers.logger.info(`sent ${doors} failed door(s) again`);
    },
    process_webhook_event: async (payload, helpers) => {
      const { eventId } = ZWebhookJobSchema.parse(payload);
      await processWebhookEvent({ eventId, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
    },
    // One outbox message by email (lib/messages): sent once, retried with backoff, then `failed`.
    send_message: async (payload, helpers) => {
      const { tenantId, messageId } = ZMessageJobSchema.parse(payload);
      await sendMessage({ tenantId, messageId, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
    },
    // One account mail (an invitation's or a reset's link; lib/messages/send-account-message.ts), the same way.
    send_account_message: async (payload, helpers) => {
      const { messageId } = ZAccountMessageJobSchema.parse(payload);
      await sendAccountMessage({ messageId, attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
    },
    // A manager's test mail (the mailbox page waits for its audit row): one attempt, the server's answer kept.
    send_test_mail: async (payload, helpers) => {
      const result = await deliverTestMail(ZTestMailJobSchema.parse(payload));
      helpers.logger.info(`test mail ${result.ok ? 'sent' : `not sent (${result.problem})`}`);
    },
    // A booking site's hold at its end: unpaid, its room is given back (cancelled `payment_timeout`).
    release_booking_hold: async (payload, helpers) => {
      const released = await releaseBookingHold(ZHoldJobSchema.parse(payload));
      if (released > 0) helpers.logger.info(`released ${released} unpaid held stay(s)`);
    },
    // A guest's extension held for its online payment, at the hold's end: unpaid, the added time is given back.
    release_stay_extension: async (payload, helpers) => {
      if ((await releaseStayExtension(ZExtensionJobSchema.parse(payload))) > 0)
        helpers.logger.info('released an unpaid stay extension');
    },
    // Booking requests that never became a booking keep no guest's details past a day.
    sweep_booking_requests: async (_payload, helpers) => {
      const swept = await sweepBookingRequests();
      if (swept > 0) helpers.logger.info(`deleted ${swept} unconfirmed booking request(s)`);
    },
    // Guest registers past their retention (three years after the stay) are erased.
    sweep_guest_registers: async (_payload, helpers) => {
      const swept = await sweepGuestRegisters();
      if (swept > 0) helpers.logger.info(`erased the guest registers of ${swept} stay(s) past their retention`);
    },
    // The iCal feeds due (every ICAL_POLL_MINUTES), each given its sync job in a queue of its own.
    poll_ical_feeds: async (_payload, helpers) => {
      const queued = await enqueueDueFeeds();
      if (queued > 0) helpers.logger.info(`queued ${queued} iCal feed fetch(es)`);
    },
    // One feed fetched and applied: new UIDs booked, moved ones moved, twice-missing ones cancelled.
    sync_ical_feed: async (payload, helpers) => {
      const outcome = await syncFeed(ZFeedJobSchema.parse(payload));
      helpers.logger.info(
        `ical feed ${outcome.status}: ${outcome.booked} booked, ${outcome.moved} moved, ${outcome.cancelled} cancelled, ${outcome.rejected} refused`,
      );
    },
    // Each tenant with TTLock (or simulated) locks due for a read given its read job, in a queue of its own.
    poll_door_records: async (_payload, helpers) => {
      const queued = await enqueueLockRecordPolls();
      if (queued > 0) helpers.logger.debug(`queued ${queued} tenant lock record read(s)`);
    },
    // A tenant's due locks' records read from their provider, openings stored as entries, cursors moved (lib/locks).
    poll_lock_records: async (payload) => {
      const { tenantId, lockId } = ZLockJobSchema.parse(payload);
      if (lockId) await pollLockRecords({ tenantId, lockId });
      else await pollTenantLockRecords(tenantId);
    },
    // A pending remote unlock: its provider's action read again (backing off) until it is done or failed.
    confirm_remote_unlock: async (payload, helpers) => {
      const { tenantId, remoteUnlockId } = ZRemoteUnlockJobSchema.parse(payload);
      const status = await confirmRemoteUnlock({
        tenantId,
        remoteUnlockId,
        attempt: helpers.job.attempts,
        maxAttempts: helpers.job.max_attempts,
      });
      helpers.logger.info(`remote unlock ${status}`);
    },
    expire_keys: async (_payload, helpers) => {
      const expired = await expireDueKeys();
      if (expired > 0) helpers.logger.info(`expired ${expired} key(s)`);
    },
    // Checked-in stays past their end are checked out (reason stay_ended), their keys expired.
    check_out_ended_stays: async (_payload, helpers) => {
      const checkedOut = await checkOutEndedStays();
      if (checkedOut > 0) helpers.logger.info(`checked out ${checkedOut} ended stay(s)`);
    },
    // A lock provider that cannot be reached opens an install-wide incident, resolved when it answers.
    health_check: async (_payload, helpers) => {
      if ((await checkLockProviderHealth()) !== 'ok') helpers.logger.warn('lock provider health check failed');
      // Workers reap each other every 10 s; the cron does too, should a process's own timer have stopped.
      const released = await reapDeadWorkers();
      if (released.length > 0) helpers.logger.warn(`released the jobs of ${released.length} dead queue worker(s)`);
    },
    // Each tenant on its own Seam or TTLock account gets its provider asked with its own credentials, a job each.
    check_tenant_providers: async (_payload, helpers) => {
      const queued = await enqueueTenantProviderChecks();
      if (queued > 0) helpers.logger.debug(`queued ${queued} tenant lock provider check(s)`);
    },
    // One tenant's provider (a failure is logged with its code and opens the tenant's incident).
    check_tenant_provider: async (payload) => {
      await checkTenantLockProvider(ZTenantProviderJobSchema.parse(payload));
    },
    // Each tenant's locks get a job: their online state and battery from the provider, their codes compared with ours.
    check_locks: async (_payload, helpers) => {
      const queued = await enqueueLockChecks();
      if (queued > 0) helpers.logger.debug(`queued ${queued} tenant lock check(s)`);
    },
    check_tenant_locks: async (payload, helpers) => {
      const { failures } = await checkTenantLocks(ZTenantJobSchema.parse(payload).tenantId);
      if (failures > 0) helpers.logger.warn(`lock check: ${failures} failure(s)`);
    },
    // Sign-ups nobody completed: gone a week after their link expired.
    sweep_sign_ups: async (_payload, helpers) => {
      const { removed } = await sweepSignUps();
      if (removed > 0) helpers.logger.info(`sign-ups: ${removed} removed`);
    },
    // Named queues no job uses any more (a key's, a feed's, a tenant's reads): graphile-worker keeps every one it
    // ever made, and each fetch locks every free one (decision 038).
    gc_job_queues: async (_payload, helpers) => {
      const removed = await helpers.withPgClient((client) => removeIdleJobQueues(client));
      if (removed > 0) helpers.logger.info(`removed ${removed} idle job queue(s)`);
    },
    prune_rate_limits: async (_payload, helpers) => {
      const { windows, buckets } = await pruneRateLimits();
      if (windows + buckets > 0) helpers.logger.info(`pruned ${windows} rate-limit window(s) and ${buckets} bucket(s)`);
    },
  };
}

/** Recurring jobs (graphile-worker crontab syntax). */
export const crontab = [
  '* * * * * heartbeat ?max=1',
  '* * * * * expire_keys ?max=1',
  '* * * * * check_out_ended_stays ?max=1',
  '* * * * * retry_failed_doors ?max=1',
  '* * * * * health_check ?max=1',
  '* * * * * poll_ical_feeds ?max=1',
  '* * * * * poll_door_records ?max=1',
  '*/5 * * * * check_tenant_providers ?max=1',
  '*/10 * * * * prune_rate_limits ?max=1',
  '*/5 * * * * gc_job_queues ?max=1',
  '*/15 * * * * check_locks ?max=1',
  '17 * * * * sweep_booking_requests ?max=1',
  '29 * * * * sweep_sign_ups ?max=1',
  '43 3 * * * sweep_guest_registers ?max=1',
].join('\n');
