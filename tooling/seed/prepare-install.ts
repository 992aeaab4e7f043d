import { clearDemoPending, demoPending } from '../config/local-state';
import { openDatabase, prepareDatabase, type OpenDatabase } from '../database/database';

/**
 * Whether the launcher seeds the demo (managers with a published password): only into the embedded
 * database this install created itself, and only while it is still empty. `DATABASE_URL` never gets
 * demo accounts from the launcher (`npm run cli -- seed-demo` does it on purpose).
 */
export function shouldSeedDemo(input: { embedded: boolean; createdHere: boolean; empty: boolean }): boolean {
  return input.embedded && input.createdHere && input.empty;
}

/**
 * The launcher's preparation: open the database, migrate it, and seed the demo on the first start
 * of an embedded database this install created; `demo` says whether the demo is there to show.
 * Leaves this process configured (APP_DATABASE_URL, NEXTAUTH_SECRET, APP_URL) like its children,
 * because it seeds and prints guest links.
 */
export async function prepareInstall(options: {
  appUrl: string;
  nextauthSecret: string;
}): Promise<{ database: OpenDatabase; applied: number; seeded: boolean; demo: boolean }> {
  const database = await openDatabase();
  const { applied } = await prepareDatabase({ adminUrl: database.adminUrl });
  Object.assign(process.env, {
    APP_DATABASE_URL: database.appUrl,
    NEXTAUTH_SECRET: options.nextauthSecret,
    APP_URL: options.appUrl,
  });
  const { hasDemo, isEmpty, seedDemo } = await import('./seed-demo');
  let seeded = false;
  // The marker is written just before the embedded database is created and removed once the demo
  // is decided, so a first start that died in between still seeds on the next one.
  if (database.embedded && demoPending()) {
    seeded = shouldSeedDemo({ embedded: true, createdHere: true, empty: await isEmpty() });
    if (seeded) await seedDemo();
    clearDemoPending();
  }
  const demo = seeded || (await hasDemo());
  const { disconnectDb } = await import('../../lib/db/client');
  await disconnectDb();
  return { database, applied, seeded, demo };
}
