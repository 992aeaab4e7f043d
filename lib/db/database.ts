import path from 'node:path';
import pg from 'pg';
import { dataDir, localSecrets } from '../config/local-state';
import { ensureEmbeddedPostgres } from './embedded';
import { migrate } from './migrator';

export const LOGIN_ROLE = 'app_login';

export type OpenDatabase = {
  /** The owner's URL: migrations, seeding tools and the job queue's own schema. */
  adminUrl: string;
  /** The login role's URL: everything the application does goes through this. */
  appUrl: string;
  embedded: boolean;
  /** Stops the embedded server if this call started it. */
  close: () => Promise<void>;
};

/** The same URL, logged in as another user. */
export function withCredentials(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(user);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Finds the database the project works on: `DATABASE_URL` when set, else the embedded
 * PostgreSQL under `.data/` (started if it is not running). Does not migrate.
 */
export async function openDatabase(options: { onLog?: (line: string) => void } = {}): Promise<OpenDatabase> {
  const secrets = localSecrets();
  const appDbPassword = process.env.APP_DB_PASSWORD || secrets.appDbPassword;
  const external = process.env.DATABASE_URL;
  if (external) {
    return {
      adminUrl: external,
      appUrl: process.env.APP_DATABASE_URL || withCredentials(external, LOGIN_ROLE, appDbPassword),
      embedded: false,
      close: async () => {},
    };
  }
  const cluster = await ensureEmbeddedPostgres({
    clusterDir: path.join(dataDir(), 'pg'),
    password: secrets.postgresPassword,
    onLog: options.onLog,
  });
  await createDatabaseIfMissing(cluster.adminUrl('postgres'), 'unlockos');
  const adminUrl = cluster.adminUrl('unlockos');
  return {
    adminUrl,
    appUrl: withCredentials(adminUrl, LOGIN_ROLE, appDbPassword),
    embedded: true,
    close: () => (cluster.started ? cluster.stop() : Promise.resolve()),
  };
}

export async function createDatabaseIfMissing(maintenanceUrl: string, name: string, template?: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return false;
    const ident = client.escapeIdentifier(name);
    await client.query(template ? `create database ${ident} template ${client.escapeIdentifier(template)}` : `create database ${ident}`);
    return true;
  } finally {
    await client.end();
  }
}

/**
 * Migrates (ours, then graphile-worker's own schema), then gives the login role its password,
 * which is never stored in a migration. Safe to run on every start.
 */
export async function prepareDatabase(options: { adminUrl: string; appDbPassword?: string | null }): Promise<{ applied: number }> {
  const result = await migrate({ databaseUrl: options.adminUrl });
  const { runMigrations } = await import('graphile-worker');
  await runMigrations({ connectionString: options.adminUrl, logger: await silentWorkerLogger() });
  // null: leave the login role's password as it is (a remote target sets it out of band).
  if (options.appDbPassword === null) return result;
  const client = new pg.Client({ connectionString: options.adminUrl });
  await client.connect();
  try {
    const password = options.appDbPassword ?? process.env.APP_DB_PASSWORD ?? localSecrets().appDbPassword;
    await client.query(`alter role ${LOGIN_ROLE} password ${client.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
  return result;
}

async function silentWorkerLogger() {
  const { Logger } = await import('graphile-worker');
  return new Logger(() => () => {});
}
