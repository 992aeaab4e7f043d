// `npm start`: the database (embedded under .data/ unless DATABASE_URL is set), migrations, the demo
// seed on the first start of an embedded database it created (never DATABASE_URL), a production
// build when the sources changed, then Next.js, the worker and the lock-vendor simulator, each with
// only the credentials it needs. Ctrl-C stops all of them, the embedded database last.
//
// A first start is mostly the build (docs/PERFORMANCE.md, "First start"): it runs while the database starts,
// migrates and seeds; the workers, the lock simulator, the mail catcher and the web processes start once the build's
// output is complete and the database is ready, while Next.js saves its build cache at the lowest priority (which
// makes the next build after a change shorter); the Stripe stand-in once the app answers healthy.
import path from 'node:path';
import { buildIsStale, START_BUILD_ARGS, startBuild, type Build } from '../tooling/config/app-build';
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
    build = startBuild({ args: [NEXT_BIN, ...START_BUILD_ARGS], env: buildEnv(), say });
    // A build that fails while the database starts is reported below, once the database is up to stop.
    build.usable.catch(() => undefined);
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
  // Until a stage of the build is reached; false (everything stopped) when the build failed before it.
  const reached = (stage: Promise<void>) =>
    stage.then(
      () => true,
      async (error: unknown) => {
        process.stderr.write(`UnlockOS failed to start: ${(error as Error).message}\n`);
        await shutdown(1);
        return false;
      },
    );
  if (build) {
    stopAlso(build.child);
    // Started while the build compiles, they would take the CPU it needs (two cores here); once it has compiled, it
    // uses one. The workers boot then (the slowest to be ready: a start is healthy once one has reported in), with
    // what they reach at once: the lock simulator (keys to program) and the mail catcher.
    if (!(await reached(Promise.race([build.compiled, build.usable])))) return;
  }
  spawnSimulator();
  spawnMailCatcher();
  for (let i = 0; i < workerCount; i++) spawnWorker(`worker-${i + 1}`);
  // The web processes need the build's output.
  if (build && !(await reached(build.usable))) return;
  const webPorts = [port];
  for (let i = 1; i < webCount; i++) webPorts.push(await freePort());
  webPorts.forEach((webPort, i) =>
    spawnChild(`web-${i + 1}`, 'web', [...WEB_NODE_FLAGS, WEB_SERVER, '--port', String(webPort), '--hostname', host]),
  );
  await announce(
    services,
    webPorts.map((p) => `http://localhost:${p}`),
  );
  // The Stripe stand-in once the app is healthy: it serves a guest's payment page, never a start, and booting it
  // beside the web process and the workers slowed both (docs/PERFORMANCE.md, First start).
  await whenHealthy(`http://127.0.0.1:${port}/api/health`, 120_000);
  spawnStripeStandin();
}

/** Resolves once `url` answers 200, or after `timeoutMs` whatever it answers (what waits on it must start anyway). */
async function whenHealthy(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(5000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`UnlockOS failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
