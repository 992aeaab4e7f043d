// `npm start`: the database (embedded under .data/ unless DATABASE_URL is set), migrations, the demo
// seed on the first start of an embedded database it created (never DATABASE_URL), a production
// build when the sources changed, then Next.js, the worker and the lock-vendor simulator, each with
// only the credentials it needs. Ctrl-C stops all of them, the embedded database last.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
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
    'lib',
    'public',
    'proxy.ts',
    'next.config.js',
    'package-lock.json',
    'tsconfig.json',
  ];
  return sources.some((source) => newestMtime(path.join(root, source)) > built);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(args[0] ?? command)} exited with ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const services = await prepareServices({ port, nodeEnv: 'production' });

  const distDir = process.env.NEXT_DIST_DIR ?? '.next';
  if (buildIsStale(path.join(root, distDir))) {
    say('UnlockOS: building the app (first start or changed sources)…');
    await run(process.execPath, [NEXT_BIN, 'build'], { ...services.envOf('web'), NEXT_TELEMETRY_DISABLED: '1' });
  }

  const { spawnChild, spawnSimulator, spawnWorker, spawnMailCatcher, spawnStripeStandin } = supervise(services);
  spawnSimulator();
  spawnMailCatcher();
  spawnStripeStandin();
  // Several web and worker processes on one database (WEB_PROCESSES, WORKER_PROCESSES): nothing
  // that correctness depends on lives in process memory, and the tests run it this way.
  const webCount = Math.max(1, Number(process.env.WEB_PROCESSES ?? 1));
  const workerCount = Math.max(1, Number(process.env.WORKER_PROCESSES ?? 1));
  for (let i = 0; i < workerCount; i++) spawnWorker(`worker-${i + 1}`);
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
