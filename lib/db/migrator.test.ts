import { cpSync, mkdtempSync, appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrate, migrationsDir, readMigrations, readSqlFiles, sqlFilesDir } from './migrator';
import { withDatabase } from '../../tooling/database/database';
import { sqlCatalogDrift } from './sql-catalog';

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
    expect(await migrate({ databaseUrl: emptyUrl })).toEqual({
      applied: 0,
      pending: [],
      sqlApplied: 0,
      sqlPending: [],
    });
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
    expect(results.map((r) => r.sqlApplied).sort((a, b) => a - b)).toEqual([0, readSqlFiles().length]);
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
    expect(plan).toEqual({
      applied: 0,
      pending: readMigrations().map((m) => m.name),
      sqlApplied: 0,
      sqlPending: readSqlFiles().map((f) => f.path),
    });
    expect(await rows(url, 'select count(*)::int as n from _prisma_migrations')).toEqual([{ n: 0 }]);
    expect(await rows(url, `select to_regclass('migrator.sql_files') is null as absent`)).toEqual([{ absent: true }]);
  });
});

/** A copy of prisma/sql to edit. */
function sqlCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sql-'));
  cpSync(sqlFilesDir(), dir, { recursive: true });
  return dir;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('the repeatable SQL files', () => {
  it('are applied after the migrations and recorded with their checksums, then only when one changes', async () => {
    const url = await scratchDatabase();
    const sqlDir = sqlCopy();
    const files = readSqlFiles(sqlDir);
    expect(await migrate({ databaseUrl: url, sqlDir })).toMatchObject({ sqlApplied: files.length });
    expect(await rows(url, 'select path, checksum from migrator.sql_files order by path')).toEqual(
      files.map((f) => ({ path: f.path, checksum: f.checksum })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
    appendFileSync(
      path.join(sqlDir, 'keys', 'app_random_pin.sql'),
      `comment on function public.app_random_pin(integer) is 'n digits';\n`,
    );
    expect(await migrate({ databaseUrl: url, sqlDir, dryRun: true })).toMatchObject({
      sqlPending: ['keys/app_random_pin.sql'],
    });
    expect(await migrate({ databaseUrl: url, sqlDir })).toEqual({
      applied: 0,
      pending: [],
      sqlApplied: 1,
      sqlPending: ['keys/app_random_pin.sql'],
    });
    expect(
      await rows(url, `select obj_description('public.app_random_pin(integer)'::regprocedure) as comment`),
    ).toEqual([{ comment: 'n digits' }]);
    expect(await migrate({ databaseUrl: url, sqlDir })).toMatchObject({ sqlApplied: 0 });
  });

  it('are all applied again after a migration runs (it may have dropped what a file defines)', async () => {
    const url = await scratchDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    cpSync(migrationsDir(), dir, { recursive: true });
    await migrate({ databaseUrl: url, dir });
    mkdirSync(path.join(dir, '29991231000000_drop_a_function'));
    writeFileSync(
      path.join(dir, '29991231000000_drop_a_function', 'migration.sql'),
      'drop function app_random_pin(integer) cascade;\n',
    );
    expect(await migrate({ databaseUrl: url, dir })).toMatchObject({ applied: 1, sqlApplied: readSqlFiles().length });
    expect(await rows(url, `select to_regprocedure('public.app_random_pin(integer)') is not null as present`)).toEqual([
      { present: true },
    ]);
  });

  it('fail the migration with the failing file named, and leave it to be applied next time', async () => {
    const url = await scratchDatabase();
    const sqlDir = sqlCopy();
    await migrate({ databaseUrl: url, sqlDir });
    writeFileSync(
      path.join(sqlDir, 'keys', 'app_random_pin.sql'),
      'create or replace function app_random_pin(n integer) returns int language sql as $$ select 1 $$;\n',
    );
    await expect(migrate({ databaseUrl: url, sqlDir })).rejects.toThrow(
      /sql file prisma\/sql\/keys\/app_random_pin\.sql failed: .*return type/,
    );
    writeFileSync(path.join(sqlDir, 'keys', 'app_random_pin.sql'), 'create or replace functio app_random_pin();\n');
    await expect(migrate({ databaseUrl: url, sqlDir })).rejects.toThrow(
      /sql file prisma\/sql\/keys\/app_random_pin\.sql failed: syntax error/,
    );
    expect(await migrate({ databaseUrl: url, sqlDir, dryRun: true })).toMatchObject({
      sqlPending: ['keys/app_random_pin.sql'],
    });
  });

  it('apply functions first, then views, a view after the files it requires', () => {
    const sqlDir = mkdtempSync(path.join(tmpdir(), 'sql-order-'));
    const write = (file: string, sql: string) => {
      mkdirSync(path.dirname(path.join(sqlDir, file)), { recursive: true });
      writeFileSync(path.join(sqlDir, file), sql);
    };
    write(
      'a/first_view.sql',
      '-- Reads the second view.\n-- requires: b/second_view.sql\ncreate or replace view first_view as select * from second_view;\n',
    );
    write('b/second_view.sql', '-- A view.\ncreate or replace view second_view as select 1 as one;\n');
    write(
      'c/some_function.sql',
      '-- A function.\ncreate or replace function some_function() returns int language sql as $$ select 1 $$;\n',
    );
    expect(readSqlFiles(sqlDir).map((f) => [f.path, f.kind])).toEqual([
      ['c/some_function.sql', 'function'],
      ['b/second_view.sql', 'view'],
      ['a/first_view.sql', 'view'],
    ]);
    write(
      'b/second_view.sql',
      '-- requires: a/first_view.sql\ncreate or replace view second_view as select 1 as one;\n',
    );
    expect(() => readSqlFiles(sqlDir)).toThrow(
      /cycle: a\/first_view\.sql -> b\/second_view\.sql -> a\/first_view\.sql/,
    );
  });
});

describe('an existing install', () => {
  it('migrated before prisma/sql existed, upgrades with no manual step and then matches the files', async () => {
    const url = await scratchDatabase();
    // Today's migrations as the previous migrator applied them: no sql files, no migrator schema.
    const none = mkdtempSync(path.join(tmpdir(), 'no-sql-'));
    expect(await migrate({ databaseUrl: url, sqlDir: none })).toMatchObject({ sqlApplied: 0 });
    await withClient(url, (client) => client.query('drop schema migrator cascade'));
    const result = await migrate({ databaseUrl: url });
    expect(result).toMatchObject({ applied: 0, pending: [], sqlApplied: readSqlFiles().length });
    const drift = await withClient(url, (client) => sqlCatalogDrift(client));
    expect(drift).toEqual([]);
    expect(await migrate({ databaseUrl: url })).toMatchObject({ applied: 0, sqlApplied: 0 });
  });
});
