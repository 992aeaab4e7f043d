import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Prisma } from './generated/client';
import { AppError } from '../errors';
import { appPool, db, servicePool } from './client';
import { logger } from '../log/logger';
import { dbErrorInfo, SQLSTATE, toDomainError } from './errors';

export type Tx = Prisma.TransactionClient;
export type DbRole = 'app_anon' | 'app_authenticated' | 'app_service';

type Settings = { role: DbRole; tenantId?: string | null; userId?: string | null; guestTokenHash?: string | null };

/** A transaction PostgreSQL aborted only because of another one running at the same time. */
const TRANSIENT = new Set<string>([SQLSTATE.deadlockDetected, SQLSTATE.serializationFailure]);
/** Runs of one transaction at most, the first included. */
export const TRANSACTION_TRIES = 3;

/**
 * Runs `attempt` (one whole transaction) again when PostgreSQL aborted it only because of a concurrent
 * one: a deadlock or serialization failure rolled it all back, so it runs again from the start
 * (PostgreSQL's advice). Safe because a transaction here only talks to the database: provider calls
 * never run inside one (DESIGN.md, Keys 3).
 */
async function retryingTransient<T>(role: DbRole, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const sqlstate = dbErrorInfo(error)?.sqlstate;
      if (sqlstate && TRANSIENT.has(sqlstate) && tries < TRANSACTION_TRIES) {
        logger.warn({ sqlstate, attempt: tries, role }, 'transaction aborted by a concurrent one; running it again');
        await new Promise((resolve) => setTimeout(resolve, 20 * tries + Math.random() * 50));
        continue;
      }
      throw toDomainError(error);
    }
  }
}

function inRole<T>(settings: Settings, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return retryingTransient(settings.role, () =>
    db().$transaction(
      async (tx) => {
        // set_config(..., true) is SET LOCAL: the role and settings end with the transaction.
        await tx.$executeRaw`select set_config('role', ${settings.role}, true),
          set_config('app.tenant_id', ${settings.tenantId ?? ''}, true),
          set_config('app.user_id', ${settings.userId ?? ''}, true),
          set_config('app.guest_token_hash', ${settings.guestTokenHash ?? ''}, true)`;
        return fn(tx);
      },
      { timeout: 15_000, maxWait: 10_000 },
    ),
  );
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
 * connection (named by their text's hash): planning was half their server time. A `Statement`
 * whose SQL takes parameters (`$1`, …) from `values`; its rows through the statement's parser.
 */
export async function serviceStatement<T>(prepared: Statement<T>, values: unknown[]): Promise<T> {
  const text = prepared.sql;
  if (text === null) return prepared.rows([]);
  let name = statementNames.get(text);
  if (!name) {
    name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    statementNames.set(text, name);
  }
  let rows: Record<string, unknown>[];
  try {
    rows = (await servicePool().query({ name, text, values })).rows;
  } catch (error) {
    throw toDomainError(error);
  }
  return prepared.rows(rows);
}

/** A value written into SQL text as a typed literal (`'…'::uuid`): quotes doubled, NUL refused. */
export function sqlLiteral(value: string | number | boolean | Date | null, type: string): string {
  if (!/^[a-z_][a-z0-9_]*(\[\])?$/.test(type)) throw new Error(`not a type name: ${type}`);
  if (value === null) return `null::${type}`;
  const text = value instanceof Date ? value.toISOString() : String(value);
  if (text.includes('\0')) throw new AppError('invalid_request', 'Text may not contain NUL characters.');
  // An E'' string reads backslashes as escapes whatever standard_conforming_strings says, so doubling
  // both backslashes and quotes keeps the text one literal on any server.
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'::${type}`;
}

/** A list of values as one typed array literal (`array[…]::uuid[]`), each a `sqlLiteral`. */
export function sqlArray(values: readonly (string | number)[], type: string): string {
  if (values.length === 0) return `'{}'::${type}[]`;
  return `array[${values.map((value) => sqlLiteral(value, type)).join(', ')}]::${type}[]`;
}

export type Scope = Settings & { apiKeyId?: string };

/**
 * Runs `statements` (SQL text, values as `sqlLiteral`s) as ONE transaction in ONE round trip: a
 * simple query of several statements, which PostgreSQL runs as one implicit transaction (all or
 * nothing). Its first statement picks the role and settings exactly as `withTenant` / `asService`
 * do (SET LOCAL: they end with the transaction), and names the API key the transaction acts for
 * (`app.api_key_id`, read by `app_current_api_key()`); with `apiKeyId`, the next one refuses (401) a
 * key revoked or not of `tenantId` — so a revocation stops the very next request in every process.
 * Returns the rows of each of `statements`, in order. For the API's hot reads and single calls of
 * SQL functions; anything that needs the application between statements uses `withTenant`.
 */
export function scopedQuery<R = Record<string, unknown>>(scope: Scope, statements: string[]): Promise<R[][]> {
  const preamble = [
    `select set_config('role', ${sqlLiteral(scope.role, 'text')}, true),
      set_config('app.tenant_id', ${sqlLiteral(scope.tenantId ?? '', 'text')}, true),
      set_config('app.user_id', ${sqlLiteral(scope.userId ?? '', 'text')}, true),
      set_config('app.guest_token_hash', ${sqlLiteral(scope.guestTokenHash ?? '', 'text')}, true),
      set_config('app.api_key_id', ${sqlLiteral(scope.apiKeyId ?? '', 'text')}, true)`,
    ...(scope.apiKeyId
      ? [
          `select app_api_key_live(${sqlLiteral(scope.tenantId ?? null, 'uuid')}, ${sqlLiteral(scope.apiKeyId, 'uuid')})`,
        ]
      : []),
  ];
  const text = [...preamble, ...statements].join(';\n');
  return retryingTransient(scope.role, async () => {
    const results = (await appPool().query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
    const list = Array.isArray(results) ? results : [results];
    return list.slice(preamble.length).map((result) => result.rows as R[]);
  });
}

/**
 * One statement and what its rows become, so that statements of different modules compose into one
 * `runStatements` (one transaction, one round trip). `sql: null` sends nothing (a read of no ids) and
 * its `rows` gets an empty list. `rows` may throw (a refused rate limit): statements map in order.
 */
export type Statement<T> = {
  sql: string | null;
  rows: (rows: Record<string, unknown>[]) => T;
  /** Its rows are not read (`effectStatement`): in a transaction it runs as a command, whatever it returns. */
  effect?: true;
};

type Results<T extends readonly Statement<unknown>[]> = { -readonly [K in keyof T]: ReturnType<T[K]['rows']> };

/**
 * A statement of rows `T` as `pg` reads them (the SQL's column aliases name `T`'s fields), each row
 * through `parse` when given (a check or a conversion), so the SQL and its rows' type stay together.
 */
export function statement<T>(sql: string, parse?: (row: Record<string, unknown>) => T): Statement<T[]> {
  return { sql, rows: (rows) => (parse ? rows.map(parse) : (rows as T[])) };
}

/** Runs `statements` as one `scopedQuery` (only those with SQL) and maps each one's rows, in order. */
export async function runStatements<const T extends readonly Statement<unknown>[]>(
  scope: Scope,
  statements: T,
): Promise<Results<T>> {
  const sent = statements.flatMap((statement) => (statement.sql === null ? [] : [statement.sql]));
  // With no SQL nothing is sent, unless an API key is to be checked.
  const results = sent.length === 0 && !scope.apiKeyId ? [] : await scopedQuery(scope, sent);
  let next = 0;
  return statements.map((statement) => statement.rows(statement.sql === null ? [] : results[next++]!)) as Results<T>;
}

/** A statement whose rows nobody reads (a write, a lock taken, a function called for its effect). */
export function effectStatement(sql: string | null): Statement<void> {
  return { sql, rows: () => undefined, effect: true };
}

/**
 * Runs `statements` in the caller's interactive transaction (`withTenant` / `asService`), in order, one
 * round trip each, and maps each one's rows as `runStatements` does: the same `Statement` serves a path
 * that needs the process between statements and one sent whole in one round trip. Rows come through
 * Prisma here and through `pg` there, so a `rows` that reads values other than text, booleans, uuids
 * and timestamps converts them itself.
 */
export async function runInTransaction<const T extends readonly Statement<unknown>[]>(
  tx: Tx,
  statements: T,
): Promise<Results<T>> {
  const results: unknown[] = [];
  for (const statement of statements) {
    if (statement.sql === null) results.push(statement.rows([]));
    // A command's result is not read: a `select` of a void function has no column Prisma can read.
    else if (statement.effect) results.push(statement.rows((await tx.$executeRawUnsafe(statement.sql), [])));
    else results.push(statement.rows(await tx.$queryRawUnsafe<Record<string, unknown>[]>(statement.sql)));
  }
  return results as Results<T>;
}
