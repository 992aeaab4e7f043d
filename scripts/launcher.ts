// What `npm start` (scripts/start.ts) and `npm run dev` (scripts/dev.ts) share: the database with
// its migrations and demo seed, each child's environment, a supervisor that restarts a child that
// dies and stops them all on Ctrl-C (the embedded database last), and the banner.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { childEnv, stripeStandinUrl, type ChildKind, type ChildSettings } from '../tooling/config/child-env';
import { dataDir, localSecrets, writePrivateFile } from '../tooling/config/local-state';
import { freePort } from '../tooling/database/embedded';
import { prepareInstall } from '../tooling/seed/prepare-install';
import { newStandinApiKey } from '../tooling/stripe-standin/api-key';
import { launcherBackendNice } from '../lib/worker/renice-backends';

export const NEXT_BIN = path.join(process.cwd(), 'node_modules', 'next', 'dist', 'bin', 'next');
export const say = (line: string) => process.stdout.write(`${line}\n`);
// The client id and account of the simulator the launcher starts (identifiers; the client secret
// and the account's password are new on every start).
const SIMULATOR_CLIENT_ID = 'unlockos';
const SIMULATOR_USERNAME = 'unlockos_demo';

export type Services = Awaited<ReturnType<typeof prepareServices>>;

/**
 * The database ready to use (embedded under .data/ unless DATABASE_URL is set; migrated; the demo
 * seeded only into an embedded database this install created), and what each child will get.
 */
export async function prepareServices(options: { port: number; nodeEnv: 'production' | 'development' }) {
  // The children's environment starts from the operator's, as it was before this process configured itself.
  const inherited = { ...process.env };
  const secrets = localSecrets();
  const appUrl = process.env.APP_URL ?? `http://localhost:${options.port}`;
  const nextauthSecret = process.env.NEXTAUTH_SECRET ?? secrets.nextauthSecret;

  say('UnlockOS: starting the database…');
  const { database, applied, seeded, demo } = await prepareInstall({ appUrl, nextauthSecret });
  say(
    `UnlockOS: database ready (${database.embedded ? `embedded, data in ${path.relative(process.cwd(), dataDir()) || '.'}/` : 'DATABASE_URL'}; ${applied} migration(s) applied)`,
  );

  const simulatorPort = await freePort();
  // The simulator started here gets a client secret and an account password of its own, new on
  // every start; a lock provider given by LOCK_VENDOR_URL comes with the operator's
  // LOCK_VENDOR_CLIENT_ID / _SECRET and LOCK_VENDOR_USERNAME / _PASSWORD.
  const ownSimulator = !process.env.LOCK_VENDOR_URL;
  const simulatorClientSecret = randomBytes(24).toString('base64url');
  const simulatorPassword = randomBytes(24).toString('base64url');
  // Without SMTP_URL, a local mail catcher (scripts/mail-catcher.ts) takes the mail, with a login new
  // on every start; the manager reads it at /manage/mailbox.
  const ownMailCatcher = !process.env.SMTP_URL;
  const mailCatcher = ownMailCatcher
    ? { port: await freePort(), user: 'unlockos', password: randomBytes(24).toString('base64url') }
    : undefined;
  // Without STRIPE_SECRET_KEY, a local Stripe stand-in (scripts/stripe-standin.ts) takes the payments
  // — no real money — and signs its webhooks to the app with a secret new on every start; its API takes
  // only the key made here, which web and workers are given.
  const ownStripeStandin = !process.env.STRIPE_SECRET_KEY;
  const stripeStandin = ownStripeStandin
    ? {
        port: await freePort(),
        webhookUrl: `http://${loopbackHost(process.env.HOST)}:${options.port}/api/webhooks/stripe`,
        webhookSecret: `whsec_${randomBytes(24).toString('base64url')}`,
        apiKey: newStandinApiKey(),
      }
    : undefined;
  const settings: ChildSettings = {
    appDatabaseUrl: database.appUrl,
    queueDatabaseUrl: database.queueUrl,
    appUrl,
    nextauthUrl: process.env.NEXTAUTH_URL ?? appUrl,
    nextauthSecret,
    appDataKey: process.env.APP_DATA_KEY ?? secrets.appDataKey,
    appDataKeyVersion: process.env.APP_DATA_KEY_VERSION ?? '1',
    lockProvider: process.env.LOCK_VENDOR ?? 'simulator',
    lockProviderUrl: process.env.LOCK_VENDOR_URL ?? `http://127.0.0.1:${simulatorPort}`,
    lockProviderClientId: ownSimulator ? SIMULATOR_CLIENT_ID : process.env.LOCK_VENDOR_CLIENT_ID,
    lockProviderClientSecret: ownSimulator ? simulatorClientSecret : process.env.LOCK_VENDOR_CLIENT_SECRET,
    lockProviderUsername: ownSimulator ? SIMULATOR_USERNAME : process.env.LOCK_VENDOR_USERNAME,
    lockProviderPassword: ownSimulator ? simulatorPassword : process.env.LOCK_VENDOR_PASSWORD,
    simulatorPort,
    simulatorClientId: SIMULATOR_CLIENT_ID,
    simulatorClientSecret,
    simulatorUsername: SIMULATOR_USERNAME,
    simulatorPassword,
    mailCatcher,
    stripeStandin,
  };
  // Each child gets only the credentials it needs (tooling/config/child-env.ts).
  const envOf = (kind: ChildKind): NodeJS.ProcessEnv => ({
    ...childEnv(kind, settings, inherited),
    NODE_ENV: options.nodeEnv,
  });
  return { database, seeded, demo, appUrl, settings, envOf, ownSimulator, ownMailCatcher, ownStripeStandin };
}

/** Where this machine reaches a web process listening on `host` (the launcher's HOST; loopback by default). */
function loopbackHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::' || host === 'localhost') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts children under supervision: one that dies on its own is restarted (at most 5 times a
 * minute), as a supervisor would; SIGINT and SIGTERM stop every child, then the database.
 */
export function supervise(services: Services) {
  const children: ChildProcess[] = [];
  let stopping = false;
  const restarts: Record<string, number[]> = {};

  const spawnChild = (name: string, kind: ChildKind, args: string[], extraEnv: Record<string, string> = {}) => {
    // Once stopping, nothing starts: a child started then (the Stripe stand-in when a Ctrl-C meets the first healthy
    // answer) was missed by the stop and outlived the launcher.
    if (stopping) return;
    const child = spawn(process.execPath, args, {
      stdio: 'inherit',
      env: { ...services.envOf(kind), ...extraEnv, UNLOCKOS_PROCESS: name },
    });
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
        if (!stopping) spawnChild(name, kind, args, extraEnv);
      }, 1000);
    });
    children.push(child);
  };

  // Processes stopped with the rest but never restarted (a build still saving its cache).
  const helpers: ChildProcess[] = [];
  const stopAlso = (child: ChildProcess) => {
    helpers.push(child);
    child.once('exit', () => helpers.splice(helpers.indexOf(child), 1));
  };

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('UnlockOS: stopping…');
    await Promise.all(
      [...children, ...helpers].map(
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
    await services.database.close();
    say('UnlockOS: stopped.');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  // The lock-vendor simulator, unless the operator named a lock provider of their own.
  const spawnSimulator = () => {
    if (services.ownSimulator) spawnChild('simulator', 'simulator', ['--import', 'tsx', 'scripts/simulator.ts']);
  };
  // When this launcher runs the embedded server, the backends serving a worker are niced like the
  // worker (lib/worker/renice-backends.ts); an operator's DATABASE_URL is left alone unless the
  // operator sets WORKER_DB_NICE (a server on this host that the worker's user may renice).
  const workerDbNice = launcherBackendNice(services.database.embedded, process.env);
  const spawnWorker = (name: string) =>
    spawnChild(name, 'worker', ['--import', 'tsx', 'scripts/worker.ts'], { WORKER_DB_NICE: workerDbNice });
  // The local mail catcher, unless the operator gave an SMTP_URL of their own.
  const spawnMailCatcher = () => {
    if (services.ownMailCatcher)
      spawnChild('mail-catcher', 'mailcatcher', ['--import', 'tsx', 'scripts/mail-catcher.ts']);
  };
  // The local Stripe stand-in, unless the operator gave a STRIPE_SECRET_KEY of their own.
  const spawnStripeStandin = () => {
    if (services.ownStripeStandin)
      spawnChild('stripe-standin', 'stripestandin', ['--import', 'tsx', 'scripts/stripe-standin.ts']);
  };
  return { spawnChild, spawnSimulator, spawnWorker, spawnMailCatcher, spawnStripeStandin, shutdown, stopAlso };
}

/** Writes where the running services are (for tests and tools on this data directory) and prints the banner. */
export async function announce(services: Services, webUrls: string[]): Promise<void> {
  const { appUrl, demo, seeded, settings } = services;
  const standinUrl = settings.stripeStandin ? stripeStandinUrl(settings.stripeStandin) : null;
  const { guestTokenFor, guestUrl } = await import('../lib/auth/guest-links');
  const { DEMO_SIGN_INS, DEMO_PASSWORD, DEMO_GUEST_LINK_ID, DEMO_BOOKING_SITES } =
    await import('../tooling/seed/seed-demo');
  const { bookingSiteUrl } = await import('../lib/facilities/update-facility-options');
  const demoGuestUrl = demo ? guestUrl(guestTokenFor(DEMO_GUEST_LINK_ID)) : null;
  writePrivateFile(
    path.join(dataDir(), 'services.json'),
    JSON.stringify(
      { appUrl, webUrls, simulatorUrl: settings.lockProviderUrl, stripeStandinUrl: standinUrl, demoGuestUrl },
      null,
      2,
    ),
  );

  say('');
  say(`UnlockOS is running at ${appUrl}${webUrls.length > 1 ? ` (and ${webUrls.slice(1).join(', ')})` : ''}`);
  if (demoGuestUrl) {
    say(`Demo sign-ins (password for all: ${DEMO_PASSWORD}):`);
    for (const s of DEMO_SIGN_INS) say(`  ${s.email.padEnd(26)} ${s.role.padEnd(11)} ${s.tenants.join(', ')}`);
    if (seeded) say('(demo data seeded on this first start)');
    say(`Demo guest key page (phone): ${demoGuestUrl}`);
    say(`Demo booking sites: ${DEMO_BOOKING_SITES.map((site) => bookingSiteUrl(site.slug)).join(', ')}`);
  } else {
    say(
      'No demo data in this database (`npm run cli -- seed-demo` adds it on purpose); create a tenant with `npm run cli -- tenant-create`.',
    );
  }
  if (services.ownMailCatcher) say('Mail: caught locally (no SMTP_URL); managers read it at /manage/mailbox');
  if (standinUrl) say(`Payments: local Stripe stand-in at ${standinUrl} (no STRIPE_SECRET_KEY; no real money)`);
  say('Press Ctrl-C to stop.');
}
