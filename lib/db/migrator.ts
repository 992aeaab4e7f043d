import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** Prisma Migrate's own advisory lock key, so this migrator and `prisma migrate deploy` exclude each other. */
const PRISMA_MIGRATE_LOCK = 72707369;

export type Migration = { name: string; sql: string; checksum: string };

export function migrationsDir(): string {
  return path.join(process.cwd(), 'prisma', 'migrations');
}

/** Reads `prisma/migrations/<timestamp>_<name>/migration.sql` in order, with Prisma's checksum (sha256 of the file). */
export function readMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export class MigrationError extends Error {}

/** The current definitions of functions and views (decision 022): `prisma/sql/<domain>/<name>.sql`. */
export function sqlFilesDir(): string {
  return path.join(process.cwd(), 'prisma', 'sql');
}

/**
 * A repeatable file: one function (its overloads share the file) or one view, `create or replace`,
 * applied whenever its checksum changes. `path` is relative to the folder (`keys/app_end_key.sql`).
 */
export type SqlFile = { path: string; sql: string; checksum: string; kind: 'function' | 'view'; requires: string[] };

const VIEW = /^\s*create\s+(?:or\s+replace\s+)?(?:(?:temp|temporary)\s+)?(?:recursive\s+)?view\b/i;
const REQUIRES = /^--\s*requires:\s*(\S+)\s*$/gim;

/** The SQL without its leading comments and blank lines, to tell a view's file from a function's. */
function firstStatement(sql: string): string {
  return sql.replace(/^(?:\s*--[^\n]*\n|\s*\/\*[\s\S]*?\*\/)*/, '');
}

/**
 * Reads the repeatable files in the order they are applied: every function first (by path —
 * bodies are not checked while applying them, so their order does not matter), then every view by
 * path, except that a view comes after each file it names in a `-- requires: <domain>/<name>.sql` line.
 */
export function readSqlFiles(dir = sqlFilesDir()): SqlFile[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.sql'))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
    .map((file): SqlFile => {
      const sql = readFileSync(path.join(dir, file), 'utf8');
      return {
        path: file,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
        kind: VIEW.test(firstStatement(sql)) ? 'view' : 'function',
        requires: [...sql.matchAll(REQUIRES)].map((match) => match[1]!),
      };
    });
  const byPath = new Map(files.map((file) => [file.path, file]));
  const ordered: SqlFile[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: SqlFile, from: string[]) => {
    if (state.get(file.path) === 'done') return;
    if (state.get(file.path) === 'visiting')
      throw new MigrationError(`sql files require each other in a cycle: ${[...from, file.path].join(' -> ')}`);
    state.set(file.path, 'visiting');
    for (const required of file.requires) {
      const dependency = byPath.get(required);
      if (!dependency) throw new MigrationError(`sql file ${file.path} requires ${required}, which does not exist`);
      visit(dependency, [...from, file.path]);
    }
    state.set(file.path, 'done');
    ordered.push(file);
  };
  for (const file of files.filter((f) => f.kind === 'function')) visit(file, []);
  for (const file of files.filter((f) => f.kind === 'view')) visit(file, []);
  return ordered;
}

/**
 * Applies pending migrations under an advisory lock, each in its own transaction, recorded in
 * `_prisma_migrations` exactly as Prisma records them; then the repeatable files of `prisma/sql`
 * whose checksum is not the one recorded in `migrator.sql_files` (all of them after any migration
 * ran, since a migration may drop what a file defines). A no-op when up to date; refuses to run
 * when an applied migration's file has changed or an earlier attempt failed half-way.
 */
export async function migrate(options: {
  databaseUrl: string;
  dir?: string;
  sqlDir?: string;
  dryRun?: boolean;
}): Promise<{ applied: number; pending: string[]; sqlApplied: number; sqlPending: string[] }> {
  const migrations = readMigrations(options.dir);
  const sqlFiles = readSqlFiles(options.sqlDir);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    await client.query(`create table if not exists "_prisma_migrations" (
      "id" varchar(36) primary key not null,
      "checksum" varchar(64) not null,
      "finished_at" timestamptz,
      "migration_name" varchar(255) not null,
      "logs" text,
      "rolled_back_at" timestamptz,
      "started_at" timestamptz not null default now(),
      "applied_steps_count" integer not null default 0)`);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'select migration_name, checksum, finished_at from "_prisma_migrations" where rolled_back_at is null',
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row]));
    for (const row of rows) {
      if (!row.finished_at)
        throw new MigrationError(`migration ${row.migration_name} failed earlier; resolve it before migrating again`);
      const file = migrations.find((m) => m.name === row.migration_name);
      if (file && file.checksum !== row.checksum) {
        throw new MigrationError(
          `migration ${row.migration_name} was changed after it was applied (checksum mismatch); refusing to run`,
        );
      }
    }
    const pending = migrations.filter((m) => !applied.has(m.name));
    const sqlPending = await dueSqlFiles(client, sqlFiles, pending.length > 0);
    const plan = { pending: pending.map((m) => m.name), sqlPending: sqlPending.map((f) => f.path) };
    if (options.dryRun) return { applied: 0, sqlApplied: 0, ...plan };
    for (const migration of pending) {
      await client.query('begin');
      try {
        const id = randomUUID();
        await client.query(
          'insert into "_prisma_migrations" (id, checksum, migration_name, started_at) values ($1, $2, $3, now())',
          [id, migration.checksum, migration.name],
        );
        await client.query(migration.sql);
        await client.query(
          'update "_prisma_migrations" set finished_at = now(), applied_steps_count = 1 where id = $1',
          [id],
        );
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw new MigrationError(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
    }
    await client.query(`create schema if not exists migrator`);
    await client.query(`create table if not exists migrator.sql_files (
      path text primary key,
      checksum varchar(64) not null,
      applied_at timestamptz not null default now())`);
    for (const file of sqlPending) {
      // One round trip per file, in its own transaction. Function bodies are checked when called,
      // not here, so files apply in any order.
      const record = `insert into migrator.sql_files (path, checksum)
        values (${client.escapeLiteral(file.path)}, ${client.escapeLiteral(file.checksum)})
        on conflict (path) do update set checksum = excluded.checksum, applied_at = now()`;
      try {
        await client.query(`begin;\nset local check_function_bodies = off;\n${file.sql}\n;\n${record};\ncommit;`);
      } catch (error) {
        await client.query('rollback');
        throw new MigrationError(`sql file prisma/sql/${file.path} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    return { applied: pending.length, sqlApplied: sqlPending.length, ...plan };
  } finally {
    await client.query('select pg_advisory_unlock_all()').catch(() => {});
    await client.end();
  }
}

/** The files to apply: every one when `all` (a migration runs first), else those new or changed since applied. */
async function dueSqlFiles(client: pg.Client, files: SqlFile[], all: boolean): Promise<SqlFile[]> {
  if (all) return files;
  const { rows: exists } = await client.query<{ found: boolean }>(
    `select to_regclass('migrator.sql_files') is not null as found`,
  );
  if (!exists[0]?.found) return files;
  const { rows } = await client.query<{ path: string; checksum: string }>(
    'select path, checksum from migrator.sql_files',
  );
  const recorded = new Map(rows.map((row) => [row.path, row.checksum]));
  return files.filter((file) => recorded.get(file.path) !== file.checksum);
}
