import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { unlockosDb?: PrismaClient };

/** The application's URL: the login role, which can do nothing until a transaction picks a role. */
export function appDatabaseUrl(): string {
  const url = process.env.APP_DATABASE_URL;
  if (!url) throw new Error('APP_DATABASE_URL is not set: start the app with `npm start`, which sets it');
  return url;
}

/** The one Prisma client of the process, logged in as the login role. */
export function db(): PrismaClient {
  if (!globalForDb.unlockosDb) {
    const adapter = new PrismaPg({ connectionString: appDatabaseUrl(), max: Number(process.env.DB_POOL_MAX ?? 10) });
    globalForDb.unlockosDb = new PrismaClient({ adapter });
  }
  return globalForDb.unlockosDb;
}

export async function disconnectDb(): Promise<void> {
  await globalForDb.unlockosDb?.$disconnect();
  globalForDb.unlockosDb = undefined;
}
