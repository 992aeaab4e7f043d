import path from 'node:path';
import type pg from 'pg';
import { readSqlFiles, type SqlFile } from './migrator';

// Every function, trigger function and view of the application has one file under prisma/sql that
// holds its current definition (decision 022). This module compares the migrated database with those
// files and lists every difference, one line each, so a failing test names them all. Test-only.

/** The schemas whose functions and views are the application's (graphile-worker owns its own). */
export const APP_SCHEMAS = ['public'] as const;

type TObject = { schema: string; name: string; signature: string; kind: 'function' | 'view'; definition: string };

// Functions (and procedures) of the application's schemas that no extension brought, with their
// whole definition as PostgreSQL prints it; views with theirs. `touched` keeps only the rows this
// transaction wrote (a `create or replace` writes the pg_proc row, or the view's rewrite rule).
function objectsQuery(touched: boolean): string {
  return `
    select n.nspname as schema, p.proname as name,
           format('%s(%s)', p.proname, pg_get_function_identity_arguments(p.oid)) as signature,
           'function' as kind, pg_get_functiondef(p.oid) as definition
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = any($1) and p.prokind in ('f', 'p')
       and not exists (select 1 from pg_depend d
                        where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
       ${touched ? 'and p.xmin = pg_current_xact_id()::xid' : ''}
    union all
    select n.nspname, c.relname, c.relname, 'view', pg_get_viewdef(c.oid)
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind = 'v'
       and not exists (select 1 from pg_depend d
                        where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
       ${touched ? 'and exists (select 1 from pg_rewrite r where r.ev_class = c.oid and r.xmin = pg_current_xact_id()::xid)' : ''}
     order by 1, 3`;
}

async function objects(client: pg.Client, touched = false): Promise<TObject[]> {
  const { rows } = await client.query<TObject>(objectsQuery(touched), [APP_SCHEMAS]);
  return rows;
}

/** A file's name is the name of what it defines: `prisma/sql/keys/app_end_key.sql` holds `app_end_key`. */
export function definedName(file: Pick<SqlFile, 'path'>): string {
  return path.posix.basename(file.path, '.sql');
}

/**
 * Every difference between the database and the files: a function or view without a file, two files
 * of one name, and a file that — applied in a transaction that is rolled back — does not define
 * exactly its object (every overload of its name, nothing else) or changes its definition.
 */
export async function sqlCatalogDrift(client: pg.Client, files: SqlFile[] = readSqlFiles()): Promise<string[]> {
  const drift: string[] = [];
  const database = await objects(client);
  const byName = new Map<string, SqlFile>();
  for (const file of files) {
    const other = byName.get(definedName(file));
    if (other) drift.push(`prisma/sql/${file.path} and prisma/sql/${other.path} define the same name`);
    else byName.set(definedName(file), file);
  }
  for (const object of database)
    if (!byName.has(object.name))
      drift.push(
        `${object.kind} ${object.schema}.${object.signature} has no file under prisma/sql (<domain>/${object.name}.sql)`,
      );

  for (const file of byName.values()) {
    const name = definedName(file);
    const before = database.filter((object) => object.name === name);
    await client.query('begin');
    try {
      await client.query('set local check_function_bodies = off');
      await client.query(file.sql);
      const after = await objects(client, true);
      const expected = before.map((o) => o.signature).sort();
      const defined = after.map((o) => o.signature).sort();
      if (JSON.stringify(defined) !== JSON.stringify(expected))
        drift.push(
          `prisma/sql/${file.path} defines ${defined.join(', ') || 'nothing'}; the database has ${expected.join(', ') || 'nothing'} of that name`,
        );
      for (const object of after) {
        const current = before.find((o) => o.signature === object.signature);
        if (current && current.definition !== object.definition)
          drift.push(`${object.kind} ${object.schema}.${object.signature} differs from prisma/sql/${file.path}`);
      }
    } catch (error) {
      drift.push(`prisma/sql/${file.path} does not apply: ${(error as Error).message}`);
    } finally {
      await client.query('rollback');
    }
  }
  return drift;
}

/** The migration whose name is the last one that may `create function` or `create view` (decision 022). */
export const LAST_MIGRATION_WITH_DEFINITIONS = '20261204330000_drift_acknowledged';

/** The marker a later migration carries when it must create a function or view mid-way, with the reason. */
export const DEFINITIONS_EXCEPTION = /^--\s*sql-file-exception:\s*\S/m;

const DEFINES = /\bcreate\s+(?:or\s+replace\s+)?(?:(?:temp|temporary|recursive)\s+)*(function|procedure|view)\b/i;

/** Migrations after the cut-off that define a function or view without the exception marker. */
export function migrationsDefiningSql(migrations: { name: string; sql: string }[]): string[] {
  return migrations
    .filter((m) => m.name > LAST_MIGRATION_WITH_DEFINITIONS)
    .filter((m) => DEFINES.test(stripComments(m.sql)) && !DEFINITIONS_EXCEPTION.test(m.sql))
    .map((m) => `${m.name} creates a ${DEFINES.exec(stripComments(m.sql))![1]!.toLowerCase()}: write it in prisma/sql`);
}

function stripComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}
