import path from 'node:path';
import pg from 'pg';
import { dataDir, localSecrets } from '../config/local-state';
import { ensureEmbeddedPostgres, type EmbeddedCluster } from '../database/embedded';
import { withDatabase } from '../database/database';
import { isLocalHost } from '../../lib/db/migration-target';

/** Databases of one test run carry the run's process id, so concurrent runs never drop each other's. */
export const templateDb = (runId: number) => `unlockos_test_${runId}_template`;
export const workerDb = (runId: number, worker: string) => `unlockos_test_${runId}_w${worker}`;
export const TEST_APP_DB_PASSWORD = 'unlockos-test-login';

/**
 * The PostgreSQL server tests run against: `DATABASE_URL`'s server when set (tests only create and
 * drop their own `unlockos_test_*` databases there), else an embedded cluster under `.data/test-pg`.
 */
export async function testServer(): Promise<{ maintenanceUrl: string; cluster: EmbeddedCluster | null }> {
  const external = process.env.DATABASE_URL;
  if (external) return { maintenanceUrl: withDatabase(external, 'postgres'), cluster: null };
  const cluster = await ensureEmbeddedPostgres({
    clusterDir: path.join(dataDir(), 'test-pg'),
    password: localSecrets().postgresPassword,
  });
  return { maintenanceUrl: cluster.adminUrl('postgres'), cluster };
}

/** Refuses to run tests against anything but a loopback server. */
export function assertLocalDatabase(url: string): void {
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host') ?? parsed.hostname;
  if (!isLocalHost(host) && process.env.ALLOW_NONLOCAL_TEST_DB !== '1') {
    throw new Error(
      `tests refuse to run against a non-local database (${host}); set ALLOW_NONLOCAL_TEST_DB=1 to override`,
    );
  }
}

export async function adminExec(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
