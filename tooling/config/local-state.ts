import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/** Secrets generated once for an install and kept under `.data/` (never committed, never logged). */
export type LocalSecrets = {
  postgresPassword: string;
  appDbPassword: string;
  appQueueDbPassword: string;
  appDataKey: string;
  nextauthSecret: string;
};

const GENERATE: Record<keyof LocalSecrets, () => string> = {
  postgresPassword: () => randomBytes(18).toString('base64url'),
  appDbPassword: () => randomBytes(18).toString('base64url'),
  appQueueDbPassword: () => randomBytes(18).toString('base64url'),
  appDataKey: () => randomBytes(32).toString('base64url'),
  nextauthSecret: () => randomBytes(32).toString('base64url'),
};

export function dataDir(): string {
  return process.env.UNLOCKOS_DATA_DIR ?? path.join(process.cwd(), '.data');
}

let serverUser: { uid: number; gid: number } | undefined;

/**
 * As root, the embedded PostgreSQL runs as the `postgres` OS user (PostgreSQL refuses to run as
 * root): its ids, or null when this process is not root or the user does not exist (yet).
 */
export function postgresOsUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  if (serverUser) return serverUser;
  try {
    const id = (flag: string) =>
      Number(
        execFileSync('id', [flag, 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] })
          .toString()
          .trim(),
      );
    serverUser = { uid: id('-u'), gid: id('-g') };
    return serverUser;
  } catch {
    return null;
  }
}

/**
 * Creates the data directory when missing and keeps it private: mode 0700, and as root owned by the
 * postgres OS user (when it exists), so that the embedded server can reach its cluster inside while
 * nobody else can even list it. Root still reads everything; the files inside stay root's, 0600.
 */
export function ensureDataDir(dir = dataDir()): string {
  mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = statSync(dir);
  if ((stat.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  const server = postgresOsUser();
  if (server && stat.uid !== server.uid) chownSync(dir, server.uid, server.gid);
  return dir;
}

/** Writes a file only its owner can read (0600), replacing any previous one in one step. */
export function writePrivateFile(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/**
 * Reads `.data/secrets.json`, creating it with fresh random values on first use (and adding any
 * secret a newer version needs). The directory is kept 0700 and the file 0600.
 */
export function localSecrets(dir = dataDir()): LocalSecrets {
  ensureDataDir(dir);
  const file = path.join(dir, 'secrets.json');
  const stored: Partial<LocalSecrets> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>)
    : {};
  const missing = (Object.keys(GENERATE) as (keyof LocalSecrets)[]).filter(
    (name) => typeof stored[name] !== 'string' || stored[name] === '',
  );
  if (missing.length === 0) {
    if ((statSync(file).mode & 0o777) !== 0o600) chmodSync(file, 0o600);
    return stored as LocalSecrets;
  }
  const secrets = { ...stored } as LocalSecrets;
  for (const name of missing) secrets[name] = GENERATE[name]();
  writePrivateFile(file, JSON.stringify(secrets, null, 2));
  return secrets;
}

const DEMO_PENDING = 'demo-pending';

/**
 * Written just before the launcher creates the embedded database, removed once the first start has
 * decided about the demo: a start that died in between still seeds it next time, and a database
 * that this install did not create (DATABASE_URL, or one made by hand) never gets demo accounts.
 */
export function markDemoPending(dir = dataDir()): void {
  ensureDataDir(dir);
  writePrivateFile(path.join(dir, DEMO_PENDING), `${new Date().toISOString()}\n`);
}

export function demoPending(dir = dataDir()): boolean {
  return existsSync(path.join(dir, DEMO_PENDING));
}

export function clearDemoPending(dir = dataDir()): void {
  rmSync(path.join(dir, DEMO_PENDING), { force: true });
}
