import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { childEnv, type ChildKind, type ChildSettings } from '../../tooling/config/child-env';
import {
  createDatabaseIfMissing,
  LOGIN_ROLE,
  prepareDatabase,
  QUEUE_ROLE,
  withCredentials,
  withDatabase,
} from '../../tooling/database/database';
import { ensureEmbeddedPostgres, freePort, type EmbeddedCluster } from '../../tooling/database/embedded';
import { WEB_NODE_FLAGS, WEB_SERVER } from '../../tooling/config/web-process';

const ROOT = process.cwd();
const DIST = process.env.NEXT_DIST_DIR ?? '.next';

export const CHAOS_SECRETS = {
  nextauth: 'chaos-nextauth-secret-0123456789',
  dataKey: 'chaos-data-key-0123456789abcdef',
  appDbPassword: 'chaos-login-password',
  queueDbPassword: 'chaos-queue-password',
  stripeWebhook: 'whsec_chaos',
};
const SIMULATOR_CLIENT_ID = 'unlockos';
const SIMULATOR_USERNAME = 'unlockos_chaos';

/** A whole UnlockOS (PostgreSQL, simulator, workers, web processes) whose parts a test can kill and restart. */
export class System {
  cluster!: EmbeddedCluster;
  adminUrl = '';
  appUrl = '';
  queueUrl = '';
  simulatorUrl = '';
  /** A new client secret for this system's simulator, given to it and to the workers. */
  readonly simulatorClientSecret = randomBytes(24).toString('base64url');
  /** A new password for the simulator's account, likewise. */
  readonly simulatorPassword = randomBytes(24).toString('base64url');
  private simulatorPort = 0;
  /** The local mail catcher the workers send to, as `npm start` runs it without SMTP_URL: a login new each start. */
  private mailCatcher = { port: 0, user: 'unlockos', password: randomBytes(24).toString('base64url') };
  readonly webs: { port: number; child: ChildProcess | null }[] = [];
  readonly workers: (ChildProcess | null)[] = [];
  private simulatorProcess: ChildProcess | null = null;
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly name: string) {
    // A bench or test that crashes must not leave its web processes and workers running.
    process.once('exit', () => {
      for (const child of this.children) child.kill('SIGKILL');
    });
  }

  get clusterDir(): string {
    return path.join(ROOT, '.data', `chaos-${this.name}`, 'pg');
  }

  async start(options: { webs: number; workers: number }): Promise<void> {
    rmSync(path.dirname(this.clusterDir), { recursive: true, force: true });
    mkdirSync(path.dirname(this.clusterDir), { recursive: true });
    await this.startDatabase();
    await createDatabaseIfMissing(this.cluster.adminUrl('postgres'), 'unlockos');
    this.adminUrl = this.cluster.adminUrl('unlockos');
    this.appUrl = withCredentials(this.adminUrl, LOGIN_ROLE, CHAOS_SECRETS.appDbPassword);
    this.queueUrl = withCredentials(this.adminUrl, QUEUE_ROLE, CHAOS_SECRETS.queueDbPassword);
    await prepareDatabase({
      adminUrl: this.adminUrl,
      appDbPassword: CHAOS_SECRETS.appDbPassword,
      queueDbPassword: CHAOS_SECRETS.queueDbPassword,
    });
    this.simulatorPort = await freePort();
    this.simulatorUrl = `http://127.0.0.1:${this.simulatorPort}`;
    this.mailCatcher.port = await freePort();
    // This process plays the app in the tests (fixtures, lib calls): what a web process and a worker get.
    Object.assign(process.env, this.env('web'), this.env('worker'));
    this.simulatorProcess = this.spawn('simulator', ['--import', 'tsx', 'scripts/simulator.ts']);
    // Without it every guest message would fail and be retried (SMTP_URL is not set), work `npm start` never does.
    this.spawn('mailcatcher', ['--import', 'tsx', 'scripts/mail-catcher.ts']);
    for (let i = 0; i < options.workers; i++) this.workers.push(this.startWorkerProcess(i));
    if (options.webs > 0 && !existsSync(path.join(ROOT, DIST, 'BUILD_ID'))) {
      throw new Error(
        `no production build in ${DIST}: run \`npm run build\` (npm test builds it for the end-to-end run)`,
      );
    }
    for (let i = 0; i < options.webs; i++) {
      const port = await freePort();
      this.webs.push({ port, child: null });
      await this.startWeb(i);
    }
    await waitFor(
      async () => (await fetch(`${this.simulatorUrl}/health`).catch(() => null))?.ok === true,
      20_000,
      'simulator',
    );
  }

  private dbPort = 0;

  /** Starts PostgreSQL, on the same port as before when it is a restart. */
  async startDatabase(): Promise<void> {
    this.dbPort ||= await freePort();
    this.cluster = await ensureEmbeddedPostgres({
      clusterDir: this.clusterDir,
      password: `${CHAOS_SECRETS.appDbPassword}-owner`,
      port: this.dbPort,
    });
  }

  async stopDatabase(): Promise<void> {
    await this.cluster.stop();
  }

  /** What the launcher would decide for this system (tooling/config/child-env.ts), web URLs aside. */
  private settings(): ChildSettings {
    return {
      appDatabaseUrl: this.appUrl,
      queueDatabaseUrl: this.queueUrl,
      appUrl: this.webs[0] ? this.webUrl(0) : 'http://localhost:3000',
      nextauthUrl: this.webs[0] ? this.webUrl(0) : 'http://localhost:3000',
      nextauthSecret: CHAOS_SECRETS.nextauth,
      appDataKey: CHAOS_SECRETS.dataKey,
      appDataKeyVersion: '1',
      lockProvider: 'simulator',
      lockProviderUrl: this.simulatorUrl,
      lockProviderClientId: SIMULATOR_CLIENT_ID,
      lockProviderClientSecret: this.simulatorClientSecret,
      lockProviderUsername: SIMULATOR_USERNAME,
      lockProviderPassword: this.simulatorPassword,
      simulatorPort: this.simulatorPort,
      simulatorClientId: SIMULATOR_CLIENT_ID,
      simulatorClientSecret: this.simulatorClientSecret,
      simulatorUsername: SIMULATOR_USERNAME,
      simulatorPassword: this.simulatorPassword,
      mailCatcher: this.mailCatcher,
    };
  }

  /** The environment of one kind of child, exactly as the launcher builds it: only the credentials it needs. */
  env(kind: ChildKind, overrides: Partial<ChildSettings> = {}): NodeJS.ProcessEnv {
    const inherited = { ...process.env, STRIPE_WEBHOOK_SECRET: CHAOS_SECRETS.stripeWebhook, LOG_LEVEL: 'warn' };
    return childEnv(kind, { ...this.settings(), ...overrides }, inherited);
  }

  private spawn(
    kind: ChildKind,
    args: string[],
    extra: Record<string, string> = {},
    overrides: Partial<ChildSettings> = {},
  ): ChildProcess {
    const child = spawn(process.execPath, args, {
      env: { ...this.env(kind, overrides), ...extra },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.children.add(child);
    child.on('exit', () => this.children.delete(child));
    return child;
  }

  private stopping = false;

  /** A worker process, restarted by this supervisor when it dies on its own (as the launcher does). */
  startWorkerProcess(slot = this.workers.length): ChildProcess {
    const child = this.spawn(
      'worker',
      [...(process.env.WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'scripts/worker.ts'],
      {
        UNLOCKOS_PROCESS: 'worker',
        WORKER_CONCURRENCY: '4',
        LOCK_VENDOR_TIMEOUT_MS: '3000',
        // This system owns its embedded server, as the launcher does (scripts/launcher.ts).
        WORKER_DB_NICE: process.env.WORKER_DB_NICE ?? '10',
      },
    );
    child.on('exit', (_code, signal) => {
      if (this.stopping || signal === 'SIGKILL' || this.workers[slot] !== child) return;
      setTimeout(() => {
        if (!this.stopping) this.workers[slot] = this.startWorkerProcess(slot);
      }, 1000);
    });
    return child;
  }

  async startWeb(index: number): Promise<void> {
    const web = this.webs[index]!;
    const url = this.webUrl(index);
    web.child = this.spawn(
      'web',
      [
        ...WEB_NODE_FLAGS,
        ...(process.env.WEB_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        WEB_SERVER,
        '--port',
        String(web.port),
        '--hostname',
        '127.0.0.1',
      ],
      {
        NEXT_DIST_DIR: DIST,
        UNLOCKOS_PROCESS: `web-${index + 1}`,
      },
      { appUrl: url, nextauthUrl: url },
    );
    await waitFor(
      async () => (await fetch(`${url}/api/v1/openapi.json`).catch(() => null))?.ok === true,
      60_000,
      `web ${index + 1}`,
    );
  }

  webUrl(index: number): string {
    return `http://127.0.0.1:${this.webs[index]!.port}`;
  }

  async kill(child: ChildProcess | null | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  async simulator(pathname: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.simulatorUrl}${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.children].map((child) => this.kill(child, 'SIGTERM')));
    const { disconnectDb } = await import('../../lib/db/client');
    await disconnectDb();
    await this.cluster?.stop();
  }
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export { withDatabase };
