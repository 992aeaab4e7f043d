import pg from 'pg';
import { appDatabaseUrl, onDisconnect } from '../db/client';
import { serviceStatement, statement } from '../db/tx';
import type { SecretProvider } from '../db/generated/enums';
import { AppError } from '../errors';
import { logger } from '../log/logger';
import { currentKeyring } from './data-key';

/**
 * The secrets that verify a tenant's webhooks, cached per process. Verification is the first thing
 * an outsider can make the server do, so it must not cost a database round trip and a pgcrypto
 * decryption per request that merely looks signed:
 * - a tenant's secret is read once (tenant lookup and decryption in one statement) and kept;
 * - every change of a tenant's secrets is announced by the database (NOTIFY from a trigger on
 *   provider_secrets: `secret-set`, rotation, a deleted tenant), and every process drops its copy
 *   at once; while the listener is down, copies live 10 seconds at most;
 * - a tenant id that does not exist is remembered for a minute, and reading tenants this process
 *   has not seen draws on a budget (a token bucket): past it, 503 with retry-after, not a query;
 * - except tenants that exist: every process keeps the ids of the install's tenants (one statement,
 *   again every minute, and a tenant whose secrets change is added by its notice), and reads a
 *   tenant in that list without drawing on the budget — so deliveries for random ids never make a
 *   real tenant's delivery wait (issue 28, item 9).
 * Correctness never depends on the cache: a mismatch re-reads the secret (at most every 10 s).
 */

type Entry = { tenantExists: boolean; secret: string | null; at: number };

const MAX_ENTRIES = 10_000;
const TTL_LISTENING_MS = 5 * 60_000;
const TTL_UNLISTENED_MS = 10_000;
const TTL_UNKNOWN_TENANT_MS = 60_000;
const REREAD_AFTER_MISMATCH_MS = 10_000;
const CHANNEL = 'unlockos_provider_secrets';
const BUDGET = { capacity: 100, perSecond: 20 } as const;
const TENANT_IDS_TTL_LISTENING_MS = 60_000;

const entries = new Map<string, Entry>();
const inflight = new Map<string, Promise<Entry>>();
const lastReread = new Map<string, number>();
let lookups = 0;
let tenantIdLoads = 0;
// The ids of the install's tenants (`tenants` is a reference table: global by nature), or null before
// the first read. Over-approximate on purpose: a deleted tenant only costs one unbudgeted lookup.
let tenantIds: { ids: Set<string>; at: number } | null = null;
let tenantIdsLoading: Promise<Set<string>> | null = null;
const noticedWhileLoading = new Set<string>();
let budget: { tokens: number; at: number } = { tokens: BUDGET.capacity, at: Date.now() };

const keyOf = (tenantId: string, provider: SecretProvider) => `${tenantId}:${provider}`;

// ---- the listener -------------------------------------------------------------------------

let listener: {
  client: pg.Client | null;
  ready: Promise<void> | null;
  listening: boolean;
  retryMs: number;
  stopped: boolean;
} = {
  client: null,
  ready: null,
  listening: false,
  retryMs: 1_000,
  stopped: false,
};

function startListener(): Promise<void> {
  if (listener.ready) return listener.ready;
  const state = listener;
  state.stopped = false;
  state.ready = (async () => {
    const client = new pg.Client({ connectionString: appDatabaseUrl() });
    state.client = client;
    const retry = () => {
      if (state.stopped || state.client !== client) return;
      state.listening = false;
      state.client = null;
      state.ready = null;
      client.end().catch(() => {});
      const wait = state.retryMs;
      state.retryMs = Math.min(state.retryMs * 2, 30_000);
      setTimeout(() => {
        if (!state.stopped) startListener().catch(() => {});
      }, wait).unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) {
        invalidateTenant(message.payload);
        tenantIds?.ids.add(message.payload);
        if (tenantIdsLoading) noticedWhileLoading.add(message.payload);
      }
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      // Whatever changed while nobody listened is unknown: start from nothing.
      entries.clear();
      state.listening = true;
      state.retryMs = 1_000;
    } catch (error) {
      logger.warn({ err: error }, 'secret change listener could not connect; cached secrets expire after 10 s');
      retry();
    }
  })();
  return state.ready;
}

const unregister = onDisconnect(async () => {
  listener.stopped = true;
  const client = listener.client;
  listener = { client: null, ready: null, listening: false, retryMs: 1_000, stopped: true };
  await client?.end().catch(() => {});
});
void unregister;

// ---- the cache ----------------------------------------------------------------------------

function fresh(entry: Entry | undefined, now: number): entry is Entry {
  if (!entry) return false;
  const ttl = !entry.tenantExists ? TTL_UNKNOWN_TENANT_MS : listener.listening ? TTL_LISTENING_MS : TTL_UNLISTENED_MS;
  return now - entry.at < ttl;
}

function takeBudget(now: number): boolean {
  budget = {
    tokens: Math.min(BUDGET.capacity, budget.tokens + ((now - budget.at) / 1000) * BUDGET.perSecond),
    at: now,
  };
  if (budget.tokens < 1) return false;
  budget.tokens -= 1;
  return true;
}

function loadTenantIds(): Promise<Set<string>> {
  if (tenantIdsLoading) return tenantIdsLoading;
  tenantIdsLoading = (async () => {
    tenantIdLoads += 1;
    const at = Date.now();
    const rows = await serviceStatement(statement<{ id: string }>(`select id::text as id from tenants`), []);
    const ids = new Set(rows.map((row) => row.id));
    // Notices that arrived while reading name tenants the read may have missed.
    for (const id of noticedWhileLoading) ids.add(id);
    noticedWhileLoading.clear();
    tenantIds = { ids, at };
    return ids;
  })().finally(() => {
    tenantIdsLoading = null;
  });
  return tenantIdsLoading;
}

/** Whether the tenant is one of the install's (as of a minute ago, or 10 s without the listener). */
async function isKnownTenant(tenantId: string, now: number): Promise<boolean> {
  const ttl = listener.listening ? TENANT_IDS_TTL_LISTENING_MS : TTL_UNLISTENED_MS;
  // A tenant created since the last read and not yet noticed draws on the budget until the next one.
  if (tenantIds && now - tenantIds.at < ttl) return tenantIds.ids.has(tenantId);
  return (await loadTenantIds()).has(tenantId);
}

async function lookup(tenantId: string, provider: SecretProvider): Promise<Entry> {
  lookups += 1;
  const { keys } = currentKeyring();
  const [row] = await serviceStatement(
    statement<{
      tenant_exists: boolean;
      secret: string | null;
    }>(`select exists (select 1 from tenants where id = $1::uuid) as tenant_exists,
            app_secret_get($1::uuid, $2::secret_provider, $3::jsonb) as secret`),
    [tenantId, provider, JSON.stringify(keys)],
  );
  return { tenantExists: row?.tenant_exists === true, secret: row?.secret ?? null, at: Date.now() };
}

function remember(key: string, entry: Entry): void {
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
}

async function load(tenantId: string, provider: SecretProvider): Promise<Entry> {
  const key = keyOf(tenantId, provider);
  const running = inflight.get(key);
  if (running) return running;
  const promise = (async () => {
    const now = Date.now();
    if (!(await isKnownTenant(tenantId, now)) && !takeBudget(now)) {
      throw new AppError(
        'unavailable',
        'Too many webhook deliveries for tenants this server has not seen; try again shortly.',
        { retryAfter: 1 },
      );
    }
    return lookup(tenantId, provider);
  })()
    .then((entry) => {
      remember(key, entry);
      return entry;
    })
    .finally(() => inflight.delete(key));
  inflight.set(key, promise);
  return promise;
}

/** Whether the tenant exists, and its secret for `provider` (null when none is set). */
export async function verificationSecret(
  tenantId: string,
  provider: SecretProvider,
): Promise<{ tenantExists: boolean; secret: string | null }> {
  startListener().catch(() => {});
  const cached = entries.get(keyOf(tenantId, provider));
  const entry = fresh(cached, Date.now()) ? cached : await load(tenantId, provider);
  return { tenantExists: entry.tenantExists, secret: entry.secret };
}

/**
 * After a signature did not match the cached secret: the secret may have changed in another process
 * a moment ago. Re-reads it, at most once every 10 s per tenant; null when it did not re-read.
 */
export async function rereadAfterMismatch(tenantId: string, provider: SecretProvider): Promise<string | null> {
  const key = keyOf(tenantId, provider);
  const now = Date.now();
  if (now - (lastReread.get(key) ?? 0) < REREAD_AFTER_MISMATCH_MS) return null;
  lastReread.set(key, now);
  if (lastReread.size > MAX_ENTRIES) lastReread.delete(lastReread.keys().next().value!);
  entries.delete(key);
  return (await load(tenantId, provider)).secret;
}

/** Drops every cached secret of a tenant (its secrets changed). */
export function invalidateTenant(tenantId: string): void {
  for (const key of entries.keys()) if (key.startsWith(`${tenantId}:`)) entries.delete(key);
  for (const key of lastReread.keys()) if (key.startsWith(`${tenantId}:`)) lastReread.delete(key);
}

/** For tests and benchmarks: lookups so far, and the budget for unknown tenants. */
export function verificationSecretStats() {
  return { lookups, tenantIdLoads, cached: entries.size, listening: listener.listening, budget: BUDGET };
}

/** For tests: forget the cache and counters (and, unless told otherwise, refill the budget). */
export function resetVerificationSecretsForTests(options: { keepBudget?: boolean } = {}): void {
  entries.clear();
  lastReread.clear();
  tenantIds = null;
  noticedWhileLoading.clear();
  lookups = 0;
  tenantIdLoads = 0;
  if (!options.keepBudget) budget = { tokens: BUDGET.capacity, at: Date.now() };
}

/** For tests: resolves once the change listener is connected. */
export async function waitForSecretListener(): Promise<void> {
  for (let i = 0; i < 100 && !listener.listening; i++) {
    await startListener().catch(() => {});
    if (!listener.listening) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
