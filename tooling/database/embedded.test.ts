import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { postgresOsUser } from '../config/local-state';
import { testServer } from '../testing/cluster';
import { openDatabase } from './database';

const root = mkdtempSync(path.join(tmpdir(), 'unlockos-embedded-'));
const saved = { dir: process.env.UNLOCKOS_DATA_DIR, url: process.env.DATABASE_URL };
afterEach(() => {
  if (saved.dir === undefined) delete process.env.UNLOCKOS_DATA_DIR;
  else process.env.UNLOCKOS_DATA_DIR = saved.dir;
  if (saved.url !== undefined) process.env.DATABASE_URL = saved.url;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const mode = (file: string) => statSync(file).mode & 0o777;

async function answers(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('select 1 as one')).rows[0]!.one;
  } finally {
    await client.end();
  }
}

/** The data directory is private: 0700, as root owned by the server's OS user, which still cannot read the secrets. */
function expectPrivate(dir: string) {
  expect(mode(dir)).toBe(0o700);
  const secrets = path.join(dir, 'secrets.json');
  expect(mode(secrets)).toBe(0o600);
  if (process.getuid?.() !== 0) return;
  const server = postgresOsUser();
  expect(server).not.toBeNull();
  expect(statSync(dir).uid).toBe(server!.uid);
  expect(statSync(secrets).uid).toBe(0);
  expect(spawnSync('cat', [secrets], { uid: server!.uid, gid: server!.gid }).status).not.toBe(0);
}

describe('the embedded PostgreSQL in a private data directory', () => {
  it('starts in a fresh nested data directory (like .data/e2e) and keeps it 0700', async () => {
    const dir = path.join(root, 'project', '.data', 'e2e');
    process.env.UNLOCKOS_DATA_DIR = dir;
    delete process.env.DATABASE_URL;
    const database = await openDatabase();
    try {
      expect(database.embedded).toBe(true);
      expect(await answers(database.adminUrl)).toBe(1);
      expectPrivate(dir);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('starts the test cluster (.data/test-pg) the same way', async () => {
    const dir = path.join(root, 'tests', '.data');
    process.env.UNLOCKOS_DATA_DIR = dir;
    delete process.env.DATABASE_URL;
    const { maintenanceUrl, cluster } = await testServer();
    try {
      expect(cluster?.started).toBe(true);
      expect(await answers(maintenanceUrl)).toBe(1);
      expectPrivate(dir);
    } finally {
      await cluster?.stop();
    }
  }, 120_000);
});
