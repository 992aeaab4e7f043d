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

/**
 * Applies pending migrations under an advisory lock, each in its own transaction, recorded in
 * `_prisma_migrations` exactly as Prisma records them. A no-op when up to date; refuses to run
 * when an applied migration's file has changed or an earlier attempt failed half-way.
 */
export async function migrate(options: {
  databaseUrl: string;
  dir?: string;
  dryRun?: boolean;
}): Promise<{ applied: number; pending: string[] }> {
  const migrations = readMigrations(options.dir);
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
    if (options.dryRun) return { applied: 0, pending: pending.map((m) => m.name) };
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
    return { applied: pending.length, pending: pending.map((m) => m.name) };
  } finally {
    await client.query('select pg_advisory_unlock_all()').catch(() => {});
    await client.end();
  }
}
