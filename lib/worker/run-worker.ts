import { hostname } from 'node:os';
import { run, Logger, type Runner } from 'graphile-worker';
import { logger } from '../log/logger';
import { beat } from './heartbeat';
import { crontab, taskList } from './tasks';

const HEARTBEAT_MS = 10_000;

/**
 * Starts graphile-worker on the job queue (`queueUrl`, the schema owner's connection) with the
 * project's tasks, and a heartbeat every 10 s. Returns a stop function that drains cleanly.
 */
export async function runWorker(options: { queueUrl: string; concurrency?: number }): Promise<{ stop: () => Promise<void>; workerId: string }> {
  const workerId = `${hostname()}:${process.pid}`;
  const log = logger.child({ workerId });
  const workerLogger = new Logger((scope) => (level, message) => {
    const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'debug';
    log[method]({ scope: { label: scope.label, taskIdentifier: scope.taskIdentifier, jobId: scope.jobId } }, message);
  });
  const runner: Runner = await run({
    connectionString: options.queueUrl,
    concurrency: options.concurrency ?? 4,
    taskList: taskList(workerId),
    crontab,
    noHandleSignals: true,
    logger: workerLogger,
  });
  await beat(workerId);
  const timer = setInterval(() => {
    beat(workerId).catch((error: unknown) => log.warn({ err: error }, 'heartbeat failed'));
  }, HEARTBEAT_MS);
  log.info('worker started');
  return {
    workerId,
    stop: async () => {
      clearInterval(timer);
      await runner.stop();
      log.info('worker stopped');
    },
  };
}
