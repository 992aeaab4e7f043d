import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { prepareDatabase, withDatabase } from '../database/database';
import { assertLocalDatabase, TEST_APP_DB_PASSWORD, templateDb, testServer } from './cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    maintenanceUrl: string;
    runId: number;
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
  const runId = process.pid;
  // Databases left by earlier runs whose process is gone.
  const { rows } = await client.query<{ datname: string }>(
    `select datname from pg_database where datname like 'unlockos\_test\_%'`,
  );
  for (const { datname } of rows) {
    const owner = Number(/^unlockos_test_(?:scratch_\w*?_)?(\d+)/.exec(datname)?.[1] ?? 0);
    if (owner !== runId && !isAlive(owner))
      await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
  }
  await client.query(`create database ${templateDb(runId)}`);
  await client.end();
  await prepareDatabase({
    adminUrl: withDatabase(maintenanceUrl, templateDb(runId)),
    appDbPassword: TEST_APP_DB_PASSWORD,
  });
  project.provide('maintenanceUrl', maintenanceUrl);
  project.provide('runId', runId);
  return async () => {
    const cleanup = new pg.Client({ connectionString: maintenanceUrl });
    await cleanup.connect();
    const { rows: own } = await cleanup.query<{ datname: string }>(
      `select datname from pg_database where datname like $1`,
      [`unlockos\_test\_${runId}\_%`],
    );
    for (const { datname } of own)
      await cleanup.query(`drop database if exists ${cleanup.escapeIdentifier(datname)} with (force)`);
    await cleanup.end();
    await cluster?.stop();
  };
}

function isAlive(pid: number): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
