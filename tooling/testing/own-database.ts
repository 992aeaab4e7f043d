import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { disconnectDb } from '../../lib/db/client';
import { withDatabase } from '../database/database';
import { templateDb } from './cluster';

async function maintenance(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_MAINTENANCE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Runs a test file in a database of its own, cloned from the migrated template: for tests whose
 * subject is the whole database (rotating every secret, a role's view of every table). Points the
 * application and the owner's test connection at it for the file, and drops it afterwards.
 * Returns the database's name and its owner URL.
 */
export function inOwnDatabase(suffix: string): { name: string; adminUrl: string } {
  const name = `unlockos_test_${inject('runId')}_${suffix}`;
  const shared = { app: process.env.APP_DATABASE_URL!, admin: process.env.TEST_ADMIN_URL! };
  const adminUrl = withDatabase(process.env.TEST_MAINTENANCE_URL!, name);
  beforeAll(async () => {
    await maintenance(`drop database if exists ${name} with (force)`);
    await maintenance(`create database ${name} template ${templateDb(inject('runId'))}`);
    await disconnectDb();
    process.env.APP_DATABASE_URL = withDatabase(shared.app, name);
    process.env.TEST_ADMIN_URL = withDatabase(shared.admin, name);
  });
  afterAll(async () => {
    await disconnectDb();
    process.env.APP_DATABASE_URL = shared.app;
    process.env.TEST_ADMIN_URL = shared.admin;
    await maintenance(`drop database if exists ${name} with (force)`);
  });
  return { name, adminUrl };
}
