// The worker process: graphile-worker with the project's task list, crontab and heartbeat.
import { setPriority } from 'node:os';

const queueUrl = process.env.QUEUE_DATABASE_URL;
if (!queueUrl || !process.env.APP_DATABASE_URL) {
  process.stderr.write('QUEUE_DATABASE_URL and APP_DATABASE_URL must be set (npm start sets them)\n');
  process.exit(2);
}

const [{ disconnectDb }, { logger }, { runWorker }] = await Promise.all([
  import('../lib/db/client'),
  import('../lib/log/logger'),
  import('../lib/worker/run-worker'),
]);
const worker = await runWorker({ queueUrl, concurrency: Number(process.env.WORKER_CONCURRENCY ?? 4) });

// Background work yields the CPU to the web processes: a webhook must be acknowledged in
// milliseconds, and its processing can use the slack (docs/PERFORMANCE.md). WORKER_NICE=0 turns it off.
// Only once it has reported in: a start is healthy when a worker has, and a worker booting at a lower priority
// than the web process booting beside it waited for that one's seconds of CPU before its own (docs/PERFORMANCE.md,
// "First start"). The build no longer needs the CPU then: the launcher starts the workers once it has compiled.
try {
  setPriority(Number(process.env.WORKER_NICE ?? 10));
} catch {
  // Not allowed here: run at the normal priority.
}
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    worker
      .stop()
      .then(() => disconnectDb())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'worker did not stop cleanly');
        process.exit(1);
      });
  });
}
