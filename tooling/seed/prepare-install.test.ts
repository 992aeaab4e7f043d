import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { localSecrets } from '../config/local-state';
import { disconnectDb } from '../../lib/db/client';
import { openDatabase, withDatabase } from '../database/database';
import { TEST_APP_DB_PASSWORD, templateDb } from '../testing/cluster';
import { prepareInstall, shouldSeedDemo } from './prepare-install';

const ENV_KEYS = [
  'DATABASE_URL',
  'APP_DATABASE_URL',
  'APP_DB_PASSWORD',
  'APP_QUEUE_DB_PASSWORD',
  'UNLOCKOS_DATA_DIR',
  'NEXTAUTH_SECRET',
  'APP_URL',
] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
const tempDirs: string[] = [];

function freshDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'unlockos-install-'));
  tempDirs.push(dir);
  return dir;
}

async function counts(url: string): Promise<{ tenants: number; users: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tenants: number; users: number }>(
      'select (select count(*) from tenants)::int as tenants, (select count(*) from users)::int as users',
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

const launch = { appUrl: 'http://localhost:3999', nextauthSecret: 'prepare-install-test-secret' };

beforeAll(async () => {
  // prepareInstall points this process's database client elsewhere: start from no connection.
  await disconnectDb();
});

afterEach(async () => {
  await disconnectDb();
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('the launcher’s preparation', () => {
  it('seeds the demo only into an empty embedded database this install created', () => {
    expect(shouldSeedDemo({ embedded: true, createdHere: true, empty: true })).toBe(true);
    expect(shouldSeedDemo({ embedded: false, createdHere: true, empty: true })).toBe(false);
    expect(shouldSeedDemo({ embedded: true, createdHere: false, empty: true })).toBe(false);
    expect(shouldSeedDemo({ embedded: true, createdHere: true, empty: false })).toBe(false);
  });

  it('never seeds demo accounts into DATABASE_URL, even when it is empty', async () => {
    const scratch = `unlockos_test_${inject('runId')}_install`;
    const maintenance = new pg.Client({ connectionString: process.env.TEST_MAINTENANCE_URL });
    await maintenance.connect();
    // The passwords the test cluster's (cluster-wide) login roles already have: other test files use them.
    const queuePassword = localSecrets().appQueueDbPassword;
    try {
      await maintenance.query(`drop database if exists ${scratch} with (force)`);
      await maintenance.query(`create database ${scratch} template ${templateDb(inject('runId'))}`);
      const adminUrl = withDatabase(process.env.TEST_MAINTENANCE_URL!, scratch);
      expect(await counts(adminUrl)).toEqual({ tenants: 0, users: 0 });

      Object.assign(process.env, {
        DATABASE_URL: adminUrl,
        APP_DB_PASSWORD: TEST_APP_DB_PASSWORD,
        APP_QUEUE_DB_PASSWORD: queuePassword,
        UNLOCKOS_DATA_DIR: freshDataDir(),
      });
      delete process.env.APP_DATABASE_URL;
      const { database, seeded, demo } = await prepareInstall(launch);
      await database.close();

      expect(database.embedded).toBe(false);
      expect(seeded).toBe(false);
      expect(demo).toBe(false);
      expect(await counts(adminUrl)).toEqual({ tenants: 0, users: 0 });
    } finally {
      await disconnectDb();
      await maintenance.query(`drop database if exists ${scratch} with (force)`);
      await maintenance.end();
    }
  });

  it('seeds the embedded database it created itself — once, and even after a crash before seeding', async () => {
    process.env.UNLOCKOS_DATA_DIR = freshDataDir();
    for (const key of ['DATABASE_URL', 'APP_DATABASE_URL', 'APP_DB_PASSWORD', 'APP_QUEUE_DB_PASSWORD'])
      delete process.env[key];

    // A first start that created the database and died before seeding it.
    const crashed = await openDatabase();
    await crashed.close();

    const first = await prepareInstall(launch);
    try {
      expect(first.database.embedded).toBe(true);
      expect(first.seeded).toBe(true);
      expect(first.demo).toBe(true);
      const seededCounts = await counts(first.database.adminUrl);
      expect(seededCounts.tenants).toBeGreaterThan(0);
      expect(seededCounts.users).toBeGreaterThan(0);
    } finally {
      await first.database.close();
    }

    // A restart seeds nothing more.
    const second = await prepareInstall(launch);
    await second.database.close();
    expect(second.seeded).toBe(false);
    expect(second.demo).toBe(true);

    // An embedded database someone else created (here: by hand, empty) gets no demo either.
    const admin = await openDatabase();
    try {
      const maintenance = new pg.Client({ connectionString: withDatabase(admin.adminUrl, 'postgres') });
      await maintenance.connect();
      await maintenance.query('drop database unlockos with (force)');
      await maintenance.query('create database unlockos');
      await maintenance.end();
      const third = await prepareInstall(launch);
      expect(third.seeded).toBe(false);
      expect(third.demo).toBe(false);
      expect(await counts(admin.adminUrl)).toEqual({ tenants: 0, users: 0 });
    } finally {
      await admin.close();
    }
  }, 180_000);
});
