import path from 'node:path';
import pg from 'pg';
import { dataDir, localSecrets, markDemoPending } from '../config/local-state';
import { ensureEmbeddedPostgres } from './embedded';
import { migrate } from '../../lib/db/migrator';

export const LOGIN_ROLE = 'app_login';
/** The job queue's login role: graphile-worker's schema only (migration 20261201020000). */
export const QUEUE_ROLE = 'app_queue';

export type OpenDatabase = {
  /** The owner's URL: migrations and administration, in the launcher and the CLI only — never a child process. */
  adminUrl: string;
  /** The login role's URL: everything the application does goes through this. */
  appUrl: string;
  /** The queue role's URL: graphile-worker in the worker processes. */
  queueUrl: string;
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
  const queueDbPassword = process.env.APP_QUEUE_DB_PASSWORD || secrets.appQueueDbPassword;
  const external = process.env.DATABASE_URL;
  if (external) {
    return {
      adminUrl: external,
      appUrl: process.env.APP_DATABASE_URL || withCredentials(external, LOGIN_ROLE, appDbPassword),
      queueUrl: withCredentials(external, QUEUE_ROLE, queueDbPassword),
      embedded: false,
      close: async () => {},
    };
  }
  const cluster = await ensureEmbeddedPostgres({
    clusterDir: path.join(dataDir(), 'pg'),
    password: secrets.postgresPassword,
    onLog: options.onLog,
  });
  // The demo is seeded only into a database this install created: say so before creating it.
  await createDatabaseIfMissing(cluster.adminUrl('postgres'), 'unlockos', undefined, {
    beforeCreate: () => markDemoPending(),
  });
  const adminUrl = cluster.adminUrl('unlockos');
  return {
    adminUrl,
    appUrl: withCredentials(adminUrl, LOGIN_ROLE, appDbPassword),
    queueUrl: withCredentials(adminUrl, QUEUE_ROLE, queueDbPassword),
    embedded: true,
    close: () => (cluster.started ? cluster.stop() : Promise.resolve()),
  };
}

/** Creates a database unless it exists; true when this call created it (`beforeCreate` runs just before). */
export async function createDatabaseIfMissing(
  maintenanceUrl: string,
  name: string,
  template?: string,
  options: { beforeCreate?: () => void } = {},
): Promise<boolean> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return false;
    options.beforeCreate?.();
    const ident = client.escapeIdentifier(name);
    await client.query(
      template ? `create database ${ident} template ${client.escapeIdentifier(template)}` : `create database ${ident}`,
    );
    return true;
  } finally {
    await client.end();
  }
}

/**
 * Migrates (ours, then graphile-worker's own schema), gives the queue role its rights on
 * graphile-worker's schema, then gives the login roles their passwords, which are never stored in a
 * migration. Safe to run on every start.
 */
export async function prepareDatabase(options: {
  adminUrl: string;
  appDbPassword?: string | null;
  queueDbPassword?: string | null;
}): Promise<{ applied: number }> {
  const result = await migrate({ databaseUrl: options.adminUrl });
  const { runMigrations } = await import('graphile-worker');
  await runMigrations({ connectionString: options.adminUrl, logger: await silentWorkerLogger() });
  // null: leave that role's password as it is (a remote target sets it out of band).
  const appDbPassword =
    options.appDbPassword === null
      ? null
      : (options.appDbPassword ?? process.env.APP_DB_PASSWORD ?? localSecrets().appDbPassword);
  const queueDbPassword =
    options.queueDbPassword !== undefined
      ? options.queueDbPassword
      : options.appDbPassword === null
        ? null
        : process.env.APP_QUEUE_DB_PASSWORD || localSecrets().appQueueDbPassword;
  const client = new pg.Client({ connectionString: options.adminUrl });
  await client.connect();
  try {
    await client.query('select app_grant_queue_role()');
    if (appDbPassword !== null)
      await client.query(`alter role ${LOGIN_ROLE} password ${client.escapeLiteral(appDbPassword)}`);
    if (queueDbPassword !== null)
      await client.query(`alter role ${QUEUE_ROLE} password ${client.escapeLiteral(queueDbPassword)}`);
  } finally {
    await client.end();
  }
  return result;
}

async function silentWorkerLogger() {
  const { Logger } = await import('graphile-worker');
  return new Logger(() => () => {});
}
