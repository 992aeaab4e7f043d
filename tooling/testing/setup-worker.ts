import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { LOGIN_ROLE, withCredentials, withDatabase } from '../database/database';
import { TEST_APP_DB_PASSWORD, templateDb, workerDb } from './cluster';

// Each test worker works in its own clone of the migrated template, created on its first file.
const maintenanceUrl = inject('maintenanceUrl');
const runId = inject('runId');
const database = workerDb(runId, process.env.VITEST_POOL_ID ?? '0');
const adminUrl = withDatabase(maintenanceUrl, database);

if (!process.env.TEST_ADMIN_URL) {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount)
      await client.query(`create database ${client.escapeIdentifier(database)} template ${templateDb(runId)}`);
  } finally {
    await client.end();
  }
}
process.env.TEST_MAINTENANCE_URL = maintenanceUrl;
process.env.TEST_ADMIN_URL = adminUrl;
process.env.APP_DATABASE_URL = withCredentials(adminUrl, LOGIN_ROLE, TEST_APP_DB_PASSWORD);
process.env.NEXTAUTH_SECRET ??= 'test-nextauth-secret';
process.env.APP_URL ??= 'http://localhost:3000';
process.env.APP_DATA_KEY ??= 'test-data-key-0123456789abcdef';

afterAll(async () => {
  const { disconnectDb } = await import('../../lib/db/client');
  await disconnectDb();
});
