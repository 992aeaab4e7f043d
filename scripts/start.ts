// `npm start`: the database (embedded under .data/ unless DATABASE_URL is set), migrations, the demo
// seed on the first start of an embedded database it created (never DATABASE_URL), a production
// build when the sources changed, then Next.js, the worker and the lock-vendor simulator, each with
// only the credentials it needs. Ctrl-C stops all of them, the embedded database last.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { childEnv, type ChildKind, type ChildSettings } from '../lib/config/child-env';
import { dataDir, localSecrets, writePrivateFile } from '../lib/config/local-state';
import { freePort } from '../lib/db/embedded';
import { WEB_NODE_FLAGS } from '../lib/config/web-process';
import { prepareInstall } from '../lib/seed/prepare-install';

const root = process.cwd();
const NEXT_BIN = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const say = (line: string) => process.stdout.write(`${line}\n`);
// The client id of the simulator the launcher starts (an identifier; its secret is new on every start).
const SIMULATOR_CLIENT_ID = 'unlockos';

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
  // The children's environment starts from the operator's, as it was before this process configured itself.
  const inherited = { ...process.env };
  const secrets = localSecrets();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const appUrl = process.env.APP_URL ?? `http://localhost:${port}`;
  const nextauthSecret = process.env.NEXTAUTH_SECRET ?? secrets.nextauthSecret;

  say('UnlockOS: starting the database…');
  // Migrates, and seeds the demo only into an embedded database this install created (never DATABASE_URL).
  const { database, applied, seeded, demo } = await prepareInstall({ appUrl, nextauthSecret });
  say(
    `UnlockOS: database ready (${database.embedded ? `embedded, data in ${path.relative(process.cwd(), dataDir()) || '.'}/` : 'DATABASE_URL'}; ${applied} migration(s) applied)`,
  );

  const simulatorPort = await freePort();
  // The simulator started here gets a client secret of its own, new on every start; a lock vendor
  // given by LOCK_VENDOR_URL comes with the operator's LOCK_VENDOR_CLIENT_ID / _SECRET.
  const ownSimulator = !process.env.LOCK_VENDOR_URL;
  const simulatorClientSecret = randomBytes(24).toString('base64url');
  const settings: ChildSettings = {
    appDatabaseUrl: database.appUrl,
    queueDatabaseUrl: database.queueUrl,
    appUrl,
    nextauthUrl: process.env.NEXTAUTH_URL ?? appUrl,
    nextauthSecret,
    appDataKey: process.env.APP_DATA_KEY ?? secrets.appDataKey,
    appDataKeyVersion: process.env.APP_DATA_KEY_VERSION ?? '1',
    lockVendor: process.env.LOCK_VENDOR ?? 'simulator',
    lockVendorUrl: process.env.LOCK_VENDOR_URL ?? `http://127.0.0.1:${simulatorPort}`,
    lockVendorClientId: ownSimulator ? SIMULATOR_CLIENT_ID : process.env.LOCK_VENDOR_CLIENT_ID,
    lockVendorClientSecret: ownSimulator ? simulatorClientSecret : process.env.LOCK_VENDOR_CLIENT_SECRET,
    simulatorPort,
    simulatorClientId: SIMULATOR_CLIENT_ID,
    simulatorClientSecret,
  };
  const envOf = (kind: ChildKind) => childEnv(kind, settings, inherited);

  const distDir = process.env.NEXT_DIST_DIR ?? '.next';
  if (buildIsStale(path.join(root, distDir))) {
    say('UnlockOS: building the app (first start or changed sources)…');
    await run(process.execPath, [NEXT_BIN, 'build'], { ...envOf('web'), NEXT_TELEMETRY_DISABLED: '1' });
  }

  const children: ChildProcess[] = [];
  let stopping = false;
  // A child that dies on its own is restarted (at most 5 times a minute), as a supervisor would.
  const restarts: Record<string, number[]> = {};
  // Each child gets only the credentials it needs (lib/config/child-env.ts).
  const spawnChild = (name: string, kind: ChildKind, args: string[]) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...envOf(kind), UNLOCKOS_PROCESS: name } });
    child.on('exit', (code, signal) => {
      children.splice(children.indexOf(child), 1);
      if (stopping) return;
      const recent = (restarts[name] = (restarts[name] ?? []).filter((t) => t > Date.now() - 60_000));
      if (recent.length >= 5) {
        say(`UnlockOS: ${name} keeps stopping (${signal ?? code}); shutting down`);
        void shutdown(1);
        return;
      }
      recent.push(Date.now());
      say(`UnlockOS: ${name} stopped unexpectedly (${signal ?? code}); restarting it`);
      setTimeout(() => {
        if (!stopping) spawnChild(name, kind, args);
      }, 1000);
    });
    children.push(child);
  };

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('UnlockOS: stopping…');
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    await database.close();
    say('UnlockOS: stopped.');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  if (ownSimulator) spawnChild('simulator', 'simulator', ['--import', 'tsx', 'scripts/simulator.ts']);
  // Several web and worker processes on one database (WEB_PROCESSES, WORKER_PROCESSES): nothing
  // that correctness depends on lives in process memory, and the tests run it this way.
  const webCount = Math.max(1, Number(process.env.WEB_PROCESSES ?? 1));
  const workerCount = Math.max(1, Number(process.env.WORKER_PROCESSES ?? 1));
  for (let i = 0; i < workerCount; i++)
    spawnChild(`worker-${i + 1}`, 'worker', ['--import', 'tsx', 'scripts/worker.ts']);
  const webPorts = [port];
  for (let i = 1; i < webCount; i++) webPorts.push(await freePort());
  webPorts.forEach((webPort, i) =>
    spawnChild(`web-${i + 1}`, 'web', [
      ...WEB_NODE_FLAGS,
      NEXT_BIN,
      'start',
      '--port',
      String(webPort),
      '--hostname',
      host,
    ]),
  );
  const webUrls = webPorts.map((p) => `http://localhost:${p}`);
  // Where the running services are, for tests and tools working on this data directory.
  const { guestTokenFor, guestUrl } = await import('../lib/auth/guest-links');
  const { DEMO_GUEST_LINK_ID, DEMO_SIGN_INS, DEMO_PASSWORD } = await import('../lib/seed/seed-demo');
  const demoGuestUrl = demo ? guestUrl(guestTokenFor(DEMO_GUEST_LINK_ID)) : null;
  writePrivateFile(
    path.join(dataDir(), 'services.json'),
    JSON.stringify({ appUrl, webUrls, simulatorUrl: settings.lockVendorUrl, demoGuestUrl }, null, 2),
  );

  say('');
  say(`UnlockOS is running at ${appUrl}${webUrls.length > 1 ? ` (and ${webUrls.slice(1).join(', ')})` : ''}`);
  if (demoGuestUrl) {
    say(`Demo sign-ins (password for all: ${DEMO_PASSWORD}):`);
    for (const s of DEMO_SIGN_INS) say(`  ${s.email.padEnd(26)} ${s.role.padEnd(11)} ${s.tenants.join(', ')}`);
    if (seeded) say('(demo data seeded on this first start)');
    say(`Demo guest key page (phone): ${demoGuestUrl}`);
  } else {
    say(
      'No demo data in this database (`npm run cli -- seed-demo` adds it on purpose); create a tenant with `npm run cli -- tenant-create`.',
    );
  }
  say('Press Ctrl-C to stop.');
}

main().catch((error: unknown) => {
  process.stderr.write(`UnlockOS failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
