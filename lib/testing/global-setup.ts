import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { prepareDatabase, withDatabase } from '../db/database';
import { assertLocalDatabase, TEMPLATE_DB, TEST_APP_DB_PASSWORD, TEST_DB_PREFIX, testServer } from './cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    maintenanceUrl: string;
  }
}

/**
 * Once per run: start (or reach) the test server, drop the previous run's databases, and build a
 * migrated template that each test worker clones (CREATE DATABASE … TEMPLATE …).
 */
export default async function setup(project: TestProject) {
  const { maintenanceUrl, cluster } = await testServer();
  assertLocalDatabase(maintenanceUrl);
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  const { rows } = await client.query<{ datname: string }>(
    `select datname from pg_database where datname = $1 or datname like $2 or datname like 'unlockos_test_scratch_%'`,
    [TEMPLATE_DB, `${TEST_DB_PREFIX}%`],
  );
  for (const row of rows) await client.query(`drop database if exists ${client.escapeIdentifier(row.datname)} with (force)`);
  await client.query(`create database ${TEMPLATE_DB}`);
  await client.end();
  await prepareDatabase({ adminUrl: withDatabase(maintenanceUrl, TEMPLATE_DB), appDbPassword: TEST_APP_DB_PASSWORD });
  project.provide('maintenanceUrl', maintenanceUrl);
  return async () => {
    await cluster?.stop();
  };
}
