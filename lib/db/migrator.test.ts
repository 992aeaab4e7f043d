import { cpSync, mkdtempSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrate, migrationsDir, readMigrations } from './migrator';
import { withDatabase } from '../../tooling/database/database';

const maintenanceUrl = process.env.TEST_MAINTENANCE_URL!;
const created: string[] = [];

async function scratchDatabase(): Promise<string> {
  const name = `unlockos_test_scratch_${process.pid}_${created.length}`;
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  created.push(name);
  return withDatabase(maintenanceUrl, name);
}

async function rows(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

let emptyUrl: string;
beforeAll(async () => {
  emptyUrl = await scratchDatabase();
});
afterAll(async () => {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  for (const name of created) await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
});

describe('the migrator', () => {
  it('applies every migration on an empty database, recorded as Prisma records them, and a second run applies nothing', async () => {
    const all = readMigrations();
    expect(all.length).toBeGreaterThan(0);
    expect(await migrate({ databaseUrl: emptyUrl })).toMatchObject({ applied: all.length });
    expect(await migrate({ databaseUrl: emptyUrl })).toEqual({ applied: 0, pending: [] });
    const recorded = await rows(
      emptyUrl,
      'select migration_name, checksum, finished_at is not null as finished, applied_steps_count from _prisma_migrations order by 1',
    );
    expect(recorded).toEqual(
      all.map((m) => ({ migration_name: m.name, checksum: m.checksum, finished: true, applied_steps_count: 1 })),
    );
    const extensions = await rows(
      emptyUrl,
      `select extname from pg_extension where extname in ('btree_gist', 'pgcrypto') order by 1`,
    );
    expect(extensions.map((e) => e.extname)).toEqual(['btree_gist', 'pgcrypto']);
  });

  it('applies each migration once when two migrators race (advisory lock)', async () => {
    const url = await scratchDatabase();
    const results = await Promise.all([migrate({ databaseUrl: url }), migrate({ databaseUrl: url })]);
    expect(results.map((r) => r.applied).sort()).toEqual([0, readMigrations().length]);
    expect(await rows(url, 'select count(*)::int as n from _prisma_migrations')).toEqual([
      { n: readMigrations().length },
    ]);
  });

  it('refuses to run when an applied migration file has changed', async () => {
    const url = await scratchDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    cpSync(migrationsDir(), dir, { recursive: true });
    await migrate({ databaseUrl: url, dir });
    const first = readMigrations(dir)[0]!;
    appendFileSync(path.join(dir, first.name, 'migration.sql'), '\n-- edited after the fact\n');
    await expect(migrate({ databaseUrl: url, dir })).rejects.toThrow(/changed after it was applied/);
  });

  it('lists pending migrations in a dry run without applying them', async () => {
    const url = await scratchDatabase();
    const plan = await migrate({ databaseUrl: url, dryRun: true });
    expect(plan).toEqual({ applied: 0, pending: readMigrations().map((m) => m.name) });
    expect(await rows(url, 'select count(*)::int as n from _prisma_migrations')).toEqual([{ n: 0 }]);
  });
});
