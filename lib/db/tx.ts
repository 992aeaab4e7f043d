import { createHash } from 'node:crypto';
import type { Prisma } from './generated/client';
import { db, servicePool } from './client';
import { logger } from '../log/logger';
import { dbErrorInfo, SQLSTATE, toDomainError } from './errors';

export type Tx = Prisma.TransactionClient;
export type DbRole = 'app_anon' | 'app_authenticated' | 'app_service';

type Settings = { role: DbRole; tenantId?: string | null; userId?: string | null; guestTokenHash?: string | null };

/** A transaction PostgreSQL aborted only because of another one running at the same time. */
const TRANSIENT = new Set<string>([SQLSTATE.deadlockDetected, SQLSTATE.serializationFailure]);
/** Runs of one transaction at most, the first included. */
export const TRANSACTION_TRIES = 3;

async function inRole<T>(settings: Settings, fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().$transaction(
        async (tx) => {
          // set_config(..., true) is SET LOCAL: the role and settings end with the transaction.
          await tx.$executeRaw`select set_config('role', ${settings.role}, true),
          set_config('app.tenant_id', ${settings.tenantId ?? ''}, true),
          set_config('app.user_id', ${settings.userId ?? ''}, true),
          set_config('app.guest_token_hash', ${settings.guestTokenHash ?? ''}, true)`;
          return fn(tx);
        },
        { timeout: 15_000, maxWait: 10_000 },
      );
    } catch (error) {
      // A deadlock or serialization failure rolled the whole transaction back, so it runs again from the
      // start (PostgreSQL's advice). Safe because a transaction here only talks to the database: provider
      // calls never run inside one (DESIGN.md, Keys 3).
      const sqlstate = dbErrorInfo(error)?.sqlstate;
      if (sqlstate && TRANSIENT.has(sqlstate) && attempt < TRANSACTION_TRIES) {
        logger.warn(
          { sqlstate, attempt, role: settings.role },
          'transaction aborted by a concurrent one; running it again',
        );
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 50));
        continue;
      }
      throw toDomainError(error);
    }
  }
}

/** Runs `fn` in one transaction as a tenant's staff: role app_authenticated, RLS scoped to `tenantId`. */
export function withTenant<T>(
  scope: { tenantId: string; userId?: string | null },
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return inRole({ role: 'app_authenticated', tenantId: scope.tenantId, userId: scope.userId }, fn);
}

/**
 * Runs `fn` in one transaction as the service role (webhooks, worker, audit writes, secrets).
 * With a `tenantId`, row-level security confines even the service role to that tenant.
 */
export function asService<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
export function asService<T>(scope: { tenantId: string }, fn: (tx: Tx) => Promise<T>): Promise<T>;
export function asService<T>(
  a: { tenantId: string } | ((tx: Tx) => Promise<T>),
  b?: (tx: Tx) => Promise<T>,
): Promise<T> {
  return typeof a === 'function'
    ? inRole({ role: 'app_service' }, a)
    : inRole({ role: 'app_service', tenantId: a.tenantId }, b!);
}

/** Runs `fn` in one transaction as an anonymous guest holding one guest link (by its token hash, hex). */
export function asGuest<T>(scope: { guestTokenHash: string }, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inRole({ role: 'app_anon', guestTokenHash: scope.guestTokenHash }, fn);
}

const statementNames = new Map<string, string>();

/**
 * Runs one statement as the service role, in its own transaction (autocommit), in one round trip
 * on `servicePool()`. For the hot paths only; anything that needs a tenant scope, several
 * statements or a user goes through `asService` / `withTenant`. Statements are prepared once per
 * connection (named by their text's hash): planning was half their server time.
 */
export async function serviceStatement<R>(text: string, values: unknown[]): Promise<R[]> {
  let name = statementNames.get(text);
  if (!name) {
    name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  try {
    const result = await servicePool().query({ name, text, values });
    return result.rows as R[];
  } catch (error) {
    throw toDomainError(error);
  }
}
