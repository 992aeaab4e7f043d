// `npm start`: the database (embedded under .data/ unless DATABASE_URL is set), migrations, the demo
// seed on the first start of an embedded database it created (never DATABASE_URL), a production
// build when the sources changed, then Next.js, the worker and the lock-vendor simulator, each with
// only the credentials it needs. Ctrl-C stops all of them, the embedded database last.
//
// A first start is mostly the build (docs/PERFORMANCE.md, "First start"): it runs while the database starts,
// migrates and seeds; the workers, the lock simulator and the mail catcher start once the build has compiled (what
// follows uses one core) and the database is ready; the web processes once the build's output is complete, while
// Next.js is still saving its build cache (which makes the next build after a change shorter); the Stripe
// stand-in last.
import path from 'node:path';
import { buildIsStale, startBuild, type Build } from '../tooling/config/app-build';
import { buildEnv } from '../tooling/config/child-env';
import { freePort } from '../tooling/database/embedded';
import { WEB_NODE_FLAGS, WEB_SERVER } from '../tooling/config/web-process';
import { announce, NEXT_BIN, prepareServices, say, supervise } from './launcher';

const root = process.cwd();

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const distDir = process.env.NEXT_DIST_DIR ?? '.next';
  let build: Build | undefined;
  if (buildIsStale(root, path.join(root, distDir))) {
    say('UnlockOS: building the app (first start or changed sources) while the database starts…');
    build = startBuild({ args: [NEXT_BIN, 'build'], env: buildEnv(), say });
  }
  const services = await prepareServices({ port, nodeEnv: 'production' }).catch((error: unknown) => {
    build?.child.kill('SIGTERM');
    throw error;
  });

  const { spawnChild, spawnSimulator, spawnWorker, spawnMailCatcher, spawnStripeStandin, shutdown, stopAlso } =
    supervise(services);
  // Several web and worker processes on one database (WEB_PROCESSES, WORKER_PROCESSES): nothing
  // that correctness depends on lives in process memory, and the tests run it this way.
  const webCount = Math.max(1, Number(process.env.WEB_PROCESSES ?? 1));
  const workerCount = Math.max(1, Number(process.env.WORKER_PROCESSES ?? 1));
  if (build) {
    stopAlso(build.child);
    // Started while the build runs, they would take the CPU it needs (two cores here).
    try {
      await build.usable;
    } catch (error) {
      process.stderr.write(`UnlockOS failed to start: ${(error as Error).message}\n`);
      await shutdown(1);
      return;
    }
  }
  // The workers with what they reach at once: the lock simulator (keys to program) and the mail catcher.
  spawnSimulator();
  spawnMailCatcher();
  for (let i = 0; i < workerCount; i++) spawnWorker(`worker-${i + 1}`);
  const webPorts = [port];
  for (let i = 1; i < webCount; i++) webPorts.push(await freePort());
  webPorts.forEach((webPort, i) =>
    spawnChild(`web-${i + 1}`, 'web', [...WEB_NODE_FLAGS, WEB_SERVER, '--port', String(webPort), '--hostname', host]),
  );
  // The Stripe stand-in last: it serves a guest's payment page, never a start.
  spawnStripeStandin();
  await announce(
    services,
    webPorts.map((p) => `http://localhost:${p}`),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`UnlockOS failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
