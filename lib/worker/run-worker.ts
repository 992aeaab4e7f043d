import { hostname } from 'node:os';
import { EventEmitter } from 'node:events';
import { run, Logger, type Runner, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { onNewConnection } from '../db/client';
import { logger } from '../log/logger';
import { startWebhookRelay } from '../webhooks/relay';
import { beat, forgetWorker, reapDeadWorkers } from './heartbeat';
import { backendNiceFromEnv, reniceEachConnection } from './renice-backends';
import { crontab, taskList } from './tasks';

const HEARTBEAT_MS = 10_000;
/**
 * How long a stop lets running jobs finish. Then they are released to the queue (each runs again, at-least-once like
 * every task) and the process goes: a deploy or a test's teardown must not wait on a call that never answers.
 */
export const STOP_GRACE_MS = 15_000;

/**
 * Starts graphile-worker on the job queue (`queueUrl`, the schema owner's connection) with the
 * project's tasks, and a heartbeat every 10 s. Returns a stop function that drains cleanly.
 */
/**
 * The queue's own connections (graphile-worker fetching, completing and failing jobs, its cron
 * bookkeeping) commit without waiting for their WAL flush (`synchronous_commit = off`). A crash of
 * the server can lose the last fraction of a second of them, always a suffix in commit order: a job
 * completed or fetched then is fetched and run again, exactly as when a worker dies before
 * completing it, which graphile-worker and every task already handle (they are at-least-once).
 * Everything else stays durable: the tasks' own work, the webhook inbox, and whatever the web
 * process acknowledges. What it buys: during a burst the worker no longer asks for two flushes per
 * job, each of which a webhook's acknowledgement queued behind (docs/PERFORMANCE.md, Webhook
 * acknowledgement).
 */
export function queuePoolConfig(queueUrl: string, concurrency: number): pg.PoolConfig {
  return { connectionString: queueUrl, max: Math.max(10, concurrency + 2), options: '-c synchronous_commit=off' };
}

/**
 * graphile-worker's settings: its defaults, one job fetched and completed at a time. graphile-worker 0.17's batched
 * fetch (`localQueue`) took several jobs of one named queue at once and ran them side by side, and released the
 * queue while one still ran, which could leave it locked with nothing in flight (graphile/worker#621, fixed in 0.18,
 * which needs Node 22). A key's jobs share the queue `key:<id>` so that programming and removing its code on a door
 * never overlap; that is worth more than the round trips batching saved. Batched completion goes too: the queue
 * stayed locked until the batch was written, so a key's next job waited for the next poll (decision 038).
 */
export function workerPreset(): GraphileConfig.Preset {
  return { worker: {} };
}

export async function runWorker(options: {
  queueUrl: string;
  concurrency?: number;
  /** How long a stop lets running jobs finish (STOP_GRACE_MS). */
  stopGraceMs?: number;
}): Promise<{ stop: () => Promise<void>; workerId: string }> {
  const workerId = `${hostname()}:${process.pid}`;
  const log = logger.child({ workerId });
  const workerLogger = new Logger((scope) => (level, message) => {
    const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'debug';
    log[method]({ scope: { label: scope.label, taskIdentifier: scope.taskIdentifier, jobId: scope.jobId } }, message);
  });
  const events: WorkerEvents = new EventEmitter();
  const queueWorkerIds: string[] = [];
  // Jobs are locked by the pool (batched fetch) or by a worker: remember both.
  events.on('pool:create', ({ workerPool }) => queueWorkerIds.push(workerPool.id));
  events.on('worker:create', ({ worker }) => queueWorkerIds.push(worker.workerId));
  // Our own pool, ended and awaited on stop with its error listener still attached: graphile-worker
  // ends a pool it made without waiting and drops its listener first, so a connection closed by the
  // server during shutdown (a restart, a dropped test database) became an uncaught exception.
  const pgPool = new pg.Pool(queuePoolConfig(options.queueUrl, options.concurrency ?? 4));
  const connectionFailed = (error: Error) => log.warn({ err: error }, 'queue connection failed');
  pgPool.on('error', connectionFailed); // an idle connection
  pgPool.on('connect', (client) => client.on('error', connectionFailed)); // one in use
  // The PostgreSQL backends doing this worker's work yield the CPU like the worker itself, when the
  // launcher owns the server (WORKER_DB_NICE): acknowledging a webhook must not wait behind them.
  const dbNice = backendNiceFromEnv();
  if (dbNice !== null) {
    const renice = (listener: (client: object) => void) => {
      pgPool.on('connect', listener);
      onNewConnection(listener);
    };
    reniceEachConnection(renice, dbNice, (pid) =>
      log.info({ pid }, 'could not lower the priority of a database backend; it keeps the server priority'),
    );
  }
  const start = (): Promise<Runner> =>
    run({
      pgPool,
      concurrency: options.concurrency ?? 4,
      taskList: taskList(workerId, () => queueWorkerIds),
      crontab,
      noHandleSignals: true,
      logger: workerLogger,
      events,
      preset: workerPreset(),
    });
  // graphile-worker stops itself after a major error (e.g. the database went away while it released
  // its jobs). The process must not live on without it: start it again.
  let stopping = false;
  let runner = await start();
  const keepRunning = (current: Runner): void => {
    current.promise
      .then(
        () => undefined,
        (error: unknown) => error,
      )
      .then(async (error) => {
        if (stopping) return;
        log.error({ err: error }, 'job runner stopped by itself; starting it again');
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          if (stopping) return;
          try {
            // The stopped runner's jobs and queues stay locked by its ids, and this live process
            // keeps beating, so the dead-worker reaper never frees them: release them here, then
            // forget those ids.
            const stale = [...queueWorkerIds];
            await pgPool.query('select graphile_worker.force_unlock_workers($1::text[])', [stale]);
            queueWorkerIds.splice(0, stale.length);
            runner = await start();
            keepRunning(runner);
            return;
          } catch (startError) {
            log.warn({ err: startError }, 'job runner could not start yet');
          }
        }
      });
  };
  keepRunning(runner);
  // Each tick: say we are alive, and release the jobs of worker processes that died holding them
  // (forgetting a dead process and releasing its jobs is one transaction: decision 005).
  const tick = async () => {
    await beat(workerId, queueWorkerIds);
    const released = await reapDeadWorkers();
    if (released.length > 0) log.warn({ deadQueueWorkers: released.length }, 'released the jobs of dead workers');
  };
  await tick();
  const timer = setInterval(() => {
    tick().catch((error: unknown) => log.warn({ err: error }, 'heartbeat failed'));
  }, HEARTBEAT_MS);
  // Stored webhook events reach the queue through this relay (migration 20261130070000).
  const relay = startWebhookRelay({
    idleMs: Number(process.env.WEBHOOK_RELAY_IDLE_MS ?? 250),
    onError: (error) => log.warn({ err: error }, 'webhook relay failed'),
  });
  log.info('worker started');
  return {
    workerId,
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      await relay.stop();
      if ((await stopWithin(runner, options.stopGraceMs ?? STOP_GRACE_MS, log)) === 'killed') {
        // The pool forgets a job it gave up on rather than failing it: release what this process still holds, so
        // that another worker runs those jobs now, not after graphile-worker's four-hour lock.
        await pgPool
          .query('select graphile_worker.force_unlock_workers($1::text[])', [queueWorkerIds])
          .catch((error: unknown) => log.warn({ err: error }, 'could not release the jobs still running'));
      }
      await pgPool.end();
      // A clean stop is not a death: no live worker should report this one as dead.
      await forgetWorker(workerId).catch((error: unknown) =>
        log.warn({ err: error }, 'could not forget own heartbeat'),
      );
      log.info('worker stopped');
    },
  };
}

/** Stops `runner` cleanly, or, if its jobs still run after `graceMs`, kills it (the caller releases its jobs). */
async function stopWithin(runner: Runner, graceMs: number, log: typeof logger): Promise<'stopped' | 'killed'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  const clean = runner.stop().then(
    () => 'stopped' as const,
    (error: unknown) => {
      log.warn({ err: error }, 'job runner stopped with an error');
      return 'stopped' as const;
    },
  );
  try {
    if ((await Promise.race([clean, late])) === 'stopped') return 'stopped';
  } finally {
    clearTimeout(timer);
  }
  log.warn({ graceMs }, 'jobs still running at stop: releasing them to the queue');
  await runner.kill('worker stopping').catch((error: unknown) => log.warn({ err: error }, 'job runner kill failed'));
  return 'killed';
}
