import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import { readMigrations, readSqlFiles, type SqlFile } from './migrator';
import { LAST_MIGRATION_WITH_DEFINITIONS, migrationsDefiningSql, sqlCatalogDrift } from './sql-catalog';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const file = (path: string, sql: string): SqlFile => ({ path, sql, checksum: '', kind: 'function', requires: [] });

describe('prisma/sql and the migrated database', () => {
  it('hold the same functions and views: each has one file, and applying its file changes nothing', async () => {
    const files = readSqlFiles();
    expect(files.length).toBeGreaterThan(100);
    const drift = await sqlCatalogDrift(admin, files);
    expect(drift, `the database and prisma/sql disagree:\n${drift.join('\n')}`).toEqual([]);
  });

  it('are told apart: a function without a file, a file that differs, a file that defines another name', async () => {
    const files = readSqlFiles();
    const endKey = files.find((f) => f.path === 'keys/app_end_key.sql')!;
    const randomPin = files.find((f) => f.path === 'keys/app_random_pin.sql')!;
    await admin.query(`create function public.app_catalog_probe() returns int language sql as 'select 1'`);
    try {
      const drift = await sqlCatalogDrift(admin, [
        ...files.filter((f) => f !== endKey && f !== randomPin),
        { ...endKey, sql: endKey.sql.replace(/\bbegin\b/, 'begin\n  perform 1;') },
        { ...randomPin, path: 'keys/app_random_digits.sql' },
      ]);
      expect(drift).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^function public\.app_catalog_probe\(\) has no file/),
          expect.stringMatching(
            /^function public\.app_end_key\(.*\) differs from prisma\/sql\/keys\/app_end_key\.sql$/,
          ),
          expect.stringMatching(/^function public\.app_random_pin\(.*\) has no file/),
          expect.stringMatching(
            /^prisma\/sql\/keys\/app_random_digits\.sql defines app_random_pin\(.*\); the database has nothing/,
          ),
        ]),
      );
    } finally {
      await admin.query('drop function public.app_catalog_probe()');
    }
  });

  it('are compared by the whole definition, not only the body (a changed setting counts)', async () => {
    const pin = readSqlFiles().find((f) => f.path === 'keys/app_random_pin.sql')!;
    const changed = pin.sql.replace(' LANGUAGE plpgsql\n', ' LANGUAGE plpgsql\n STABLE\n');
    expect(changed).not.toBe(pin.sql);
    expect(await sqlCatalogDrift(admin, [file(pin.path, changed)])).toContainEqual(
      expect.stringMatching(/app_random_pin\(.*\) differs from prisma\/sql\/keys\/app_random_pin\.sql/),
    );
  });
});

describe('migrations after the cut-off', () => {
  it('define no function or view: those live in prisma/sql (an exception says why in a marker)', () => {
    const migrations = readMigrations();
    expect(migrations.some((m) => m.name === LAST_MIGRATION_WITH_DEFINITIONS)).toBe(true);
    expect(migrationsDefiningSql(migrations)).toEqual([]);
  });

  it('are caught when they do, unless marked', () => {
    const later = '29991231000000_later';
    expect(
      migrationsDefiningSql([
        { name: later, sql: 'create or replace function f() returns int language sql as $$ select 1 $$;' },
        { name: `${later}_view`, sql: 'create view v as select 1;' },
        { name: `${later}_comment`, sql: '-- we used to create function f here\nalter table t add column c int;' },
        {
          name: `${later}_marked`,
          sql: '-- sql-file-exception: the trigger below needs it now\ncreate function f() returns trigger language plpgsql as $$ begin return null; end $$;',
        },
        {
          name: LAST_MIGRATION_WITH_DEFINITIONS,
          sql: 'create function f() returns int language sql as $$ select 1 $$;',
        },
      ]),
    ).toEqual([
      `${later} creates a function: write it in prisma/sql`,
      `${later}_view creates a view: write it in prisma/sql`,
    ]);
  });
});
