import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as {
  unlockosDb?: PrismaClient;
  unlockosPool?: pg.Pool;
  unlockosServicePool?: pg.Pool;
};

/** The application's URL: the login role, which can do nothing until a transaction picks a role. */
export function appDatabaseUrl(): string {
  const url = process.env.APP_DATABASE_URL;
  if (!url) throw new Error('APP_DATABASE_URL is not set: start the app with `npm start`, which sets it');
  return url;
}

const connectListeners = new Set<(client: pg.PoolClient) => void>();

/**
 * Calls `listener` with every connection this process's pools open from now on (the worker renices
 * the backends that serve it: lib/worker/renice-backends.ts). Returns a function that stops it.
 */
export function onNewConnection(listener: (client: pg.PoolClient) => void): () => void {
  connectListeners.add(listener);
  return () => connectListeners.delete(listener);
}

function newPool(max: number, options?: string): pg.Pool {
  // Idle connections stay open: opening one costs a SCRAM handshake and a cold backend (~ms of CPU).
  const created = new pg.Pool({
    connectionString: appDatabaseUrl(),
    max,
    idleTimeoutMillis: 0,
    ...(options ? { options } : {}),
  });
  // An idle connection dropped by the server (a restart) is not an error of any request.
  created.on('error', () => {});
  created.on('connect', (client) => {
    for (const listener of connectListeners) listener(client);
  });
  return created;
}

/** The one Prisma client of the process, logged in as the login role. */
export function db(): PrismaClient {
  if (!globalForDb.unlockosDb) {
    globalForDb.unlockosPool = newPool(Number(process.env.DB_POOL_MAX ?? 10));
    globalForDb.unlockosDb = new PrismaClient({ adapter: new PrismaPg(globalForDb.unlockosPool) });
  }
  return globalForDb.unlockosDb;
}

/** The pool under `db()` (the login role's connections), for statements sent without Prisma (`scopedQuery`). */
export function appPool(): pg.Pool {
  db();
  return globalForDb.unlockosPool!;
}

/**
 * A small pool of the login role's connections that are the service role for their whole session
 * (startup option `role=app_service`, no tenant, no user). Only `serviceStatement` uses it, for
 * single statements on the hot paths — the webhook inbox and the worker's bookkeeping of events —
 * where BEGIN / SET LOCAL ROLE / COMMIT would cost more round trips than the statement itself.
 * Staff and guest work never touches these connections.
 */
export function servicePool(): pg.Pool {
  globalForDb.unlockosServicePool ??= newPool(Number(process.env.DB_SERVICE_POOL_MAX ?? 5), '-c role=app_service');
  return globalForDb.unlockosServicePool;
}

const closers = new Set<() => Promise<void>>();

/** Registers something holding its own connection (a LISTEN client) to be closed by `disconnectDb`. */
export function onDisconnect(close: () => Promise<void>): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

export async function disconnectDb(): Promise<void> {
  const pending = [...closers];
  closers.clear();
  await Promise.all(pending.map((close) => close().catch(() => {})));
  const { unlockosDb: client, unlockosPool: shared, unlockosServicePool: service } = globalForDb;
  globalForDb.unlockosDb = undefined;
  globalForDb.unlockosPool = undefined;
  globalForDb.unlockosServicePool = undefined;
  await client?.$disconnect();
  await Promise.all([shared?.end(), service?.end()]);
}
