import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Secrets generated once for an install and kept under `.data/` (never committed, never logged). */
export type LocalSecrets = {
  postgresPassword: string;
  appDbPassword: string;
  appDataKey: string;
  nextauthSecret: string;
};

export function dataDir(): string {
  return process.env.UNLOCKOS_DATA_DIR ?? path.join(process.cwd(), '.data');
}

/** Reads `.data/secrets.json`, creating it with fresh random values on first use. */
export function localSecrets(dir = dataDir()): LocalSecrets {
  const file = path.join(dir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  mkdirSync(dir, { recursive: true });
  const secrets: LocalSecrets = {
    postgresPassword: randomBytes(18).toString('base64url'),
    appDbPassword: randomBytes(18).toString('base64url'),
    appDataKey: randomBytes(32).toString('base64url'),
    nextauthSecret: randomBytes(32).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}
