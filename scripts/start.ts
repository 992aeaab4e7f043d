// `npm start`: the database (embedded under .data/ unless DATABASE_URL is set), migrations, the demo
// seed on the first start of an embedded database it created (never DATABASE_URL), a production
// build when the sources changed, then Next.js, the worker and the lock-vendor simulator, each with
// only the credentials it needs. Ctrl-C stops all of them, the embedded database last.
//
// A first start is mostly the build (docs/PERFORMANCE.md, "First start"): it runs while the database starts,
// migrates and seeds, and the processes that do not serve pages (workers, simulator, mail catcher, Stripe
// stand-in) start as soon as the database is ready; the web processes start once the build's output is
// complete, while Next.js is still saving its build cache (which makes the next build after a change shorter).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildEnv } from '../tooling/config/child-env';
import { freePort } from '../tooling/database/embedded';
import { WEB_NODE_FLAGS, WEB_SERVER } from '../tooling/config/web-process';
import { announce, NEXT_BIN, prepareServices, say, supervise } from './launcher';

const root = process.cwd();

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry)
    .filter((name) => name !== 'node_modules' && !name.startsWith('.'))
    .reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** A build is needed when there is none, or a source file is newer than it. */
function buildIsStale(distDir: string): boolean {
  const buildId = path.join(distDir, 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const sources = [
    'app',
    'components',
    'i18n',
    'messages',
    'lib',
    'public',
    'proxy.ts',
    'instrumentation.ts',
    'next.config.js',
    'package-lock.json',
    'tsconfig.json',
  ];
  return sources.some((source) => newestMtime(path.join(root, source)) > built);
}

// The legend `next build` prints under its route table, the last thing it writes before saving its cache: every
// file the server reads is in place by then.
const ROUTE_TABLE_LEGEND = /^\s*ƒ\s+\(Dynamic\)/m;

type Build = {
  child: ChildProcess;
  /** Resolves once the build's output is complete (the route table printed, or the build exited 0). */
  usable: Promise<void>;
};

/** `next build`, its output passed through; fails when it exits non-zero before its output is complete. */
function startBuild(): Build {
  const child = spawn(process.execPath, [NEXT_BIN, 'build'], {
    env: buildEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let complete = false;
  const usable = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      if (complete) return;
      tail = (tail + chunk.toString()).slice(-4096);
      if (ROUTE_TABLE_LEGEND.test(tail)) {
        complete = true;
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve();
      if (!complete) return reject(new Error(`next build exited with ${signal ?? code}`));
      say(`UnlockOS: next build stopped while saving its cache (${signal ?? code}); the app is built`);
    });
  });
  return { child, usable };
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const distDir = process.env.NEXT_DIST_DIR ?? '.next';
  let build: Build | undefined;
  if (buildIsStale(path.join(root, distDir))) {
    say('UnlockOS: building the app (first start or changed sources) while the database starts…');
    build = startBuild();
  }
  const services = await prepareServices({ port, nodeEnv: 'production' }).catch((error: unknown) => {
    build?.child.kill('SIGTERM');
    throw error;
  });

  const { spawnChild, spawnSimulator, spawnWorker, spawnMailCatcher, spawnStripeStandin, shutdown, stopAlso } =
    supervise(services);
  if (build) stopAlso(build.child);
  spawnSimulator();
  spawnMailCatcher();
  spawnStripeStandin();
  // Several web and worker processes on one database (WEB_PROCESSES, WORKER_PROCESSES): nothing
  // that correctness depends on lives in process memory, and the tests run it this way.
  const webCount = Math.max(1, Number(process.env.WEB_PROCESSES ?? 1));
  const workerCount = Math.max(1, Number(process.env.WORKER_PROCESSES ?? 1));
  for (let i = 0; i < workerCount; i++) spawnWorker(`worker-${i + 1}`);

  if (build) {
    try {
      await build.usable;
    } catch (error) {
      process.stderr.write(`UnlockOS failed to start: ${(error as Error).message}\n`);
      await shutdown(1);
      return;
    }
  }
  const webPorts = [port];
  for (let i = 1; i < webCount; i++) webPorts.push(await freePort());
  webPorts.forEach((webPort, i) =>
    spawnChild(`web-${i + 1}`, 'web', [...WEB_NODE_FLAGS, WEB_SERVER, '--port', String(webPort), '--hostname', host]),
  );
  await announce(
    services,
    webPorts.map((p) => `http://localhost:${p}`),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`UnlockOS failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
