// `npm run bench:db`: what each domain operation costs the database — round trips, server time
// (pg_stat_statements) and client wall time — next to a single-row insert through the same driver,
// and what the wrappers around a SQL function (role switch, transaction) cost over calling it
// directly. In-process, against an embedded PostgreSQL of its own started with pg_stat_statements.
// Writes the section "Database cost per operation" of docs/PERFORMANCE.md.
import { loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dataDir, localSecrets } from '../../tooling/config/local-state';
import { createDatabaseIfMissing, LOGIN_ROLE, prepareDatabase, withCredentials } from '../../tooling/database/database';
import { ensureEmbeddedPostgres } from '../../tooling/database/embedded';
import { machine, writeSection } from './harness';

/** Operations timed per measurement (after WARMUP untimed ones). */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 150);
const WARMUP = 20;
/** Seconds per wrapper measurement. */
const WRAP_SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const RUNS = 2;
const f = (x: number, d = 2) => x.toFixed(d);
const WRAPPER_TARGET = 1.3;
const started = performance.now();
const loadBefore = loadavg();

// --- A server of its own, with pg_stat_statements counting statements inside functions too. ---
process.env.UNLOCKOS_DATA_DIR ??= '.data/bench-db';
const secrets = localSecrets();
const cluster = await ensureEmbeddedPostgres({
  clusterDir: path.join(dataDir(), 'pg'),
  password: secrets.postgresPassword,
  settings: {
    shared_preload_libraries: 'pg_stat_statements',
    'pg_stat_statements.track': 'all',
    'pg_stat_statements.track_planning': 'on',
    'pg_stat_statements.max': '10000',
  },
});
const DB = 'unlockos_bench_db';
const maintenance = new pg.Client({ connectionString: cluster.adminUrl('postgres') });
await maintenance.connect();
await maintenance.query(`drop database if exists ${DB} with (force)`);
await maintenance.end();
await createDatabaseIfMissing(cluster.adminUrl('postgres'), DB);
const adminUrl = cluster.adminUrl(DB);
await prepareDatabase({ adminUrl });
const appUrl = withCredentials(adminUrl, LOGIN_ROLE, secrets.appDbPassword);
process.env.APP_DATABASE_URL = appUrl;
process.env.DB_POOL_MAX = '10';
process.env.DB_SERVICE_POOL_MAX = '8';
process.env.NEXTAUTH_SECRET ??= 'bench-db-secret';
process.env.APP_DATA_KEY ??= 'bench-db-data-key-0123456789';
process.env.LOG_LEVEL ??= 'error';
delete process.env.STRIPE_SECRET_KEY; // a booking's PaymentIntent is Stripe's time, not the database's

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
if ((await admin.query(`show shared_preload_libraries`)).rows[0].shared_preload_libraries !== 'pg_stat_statements')
  throw new Error(`a server without pg_stat_statements is running on ${dataDir()}/pg: stop it and run again`);
await admin.query('create extension if not exists pg_stat_statements');
const { dbid } = (await admin.query(`select oid as dbid from pg_database where datname = current_database()`))
  .rows[0] as { dbid: number };

// --- Round trips: every query the pg driver sends (Prisma's adapter, pools and clients all end here). ---
type Trip = { kind: 'BEGIN/COMMIT' | 'set_config' | 'statement' };
const trips: Trip[] = [];
let counting = false;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) {
    const config = args[0];
    const text = (typeof config === 'string' ? config : ((config as { text?: string })?.text ?? '')).trimStart();
    trips.push({
      kind: /^(begin|commit|rollback)\b/i.test(text)
        ? 'BEGIN/COMMIT'
        : /^select set_config\('role'/i.test(text)
          ? 'set_config'
          : 'statement',
    });
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const { asService, scopedQuery, serviceStatement, sqlLiteral, statement } = await import('../../lib/db/tx');
const { disconnectDb } = await import('../../lib/db/client');
const { createTenant } = await import('../../lib/staff/create-tenant');
const { createFacility } = await import('../../lib/facilities/create-facility');
const { createRoom } = await import('../../lib/rooms/create-room');
const { createStaffUser } = await import('../../lib/staff/create-staff-user');
const { createBookingGroup } = await import('../../lib/bookings/create-booking-group');
const { bookGroup } = await import('../../lib/bookings/book-group');
const { completeCheckIn } = await import('../../lib/stays/complete-check-in');
const { setProviderSecret } = await import('../../lib/secrets/provider-secrets');
const { addBookingSource } = await import('../../lib/bookings/booking-sources');
const { signCalendly } = await import('../../lib/webhooks/calendly/verify');
const { receiveCalendlyWebhook } = await import('../../lib/webhooks/receive-booking-provider');
const { processWebhookEvent } = await import('../../lib/webhooks/process-event');
const { getGuestPage } = await import('../../lib/guests/get-guest-page');
const { getGuestStatus } = await import('../../lib/guests/get-guest-key');
const { guestStatusLimit } = await import('../../lib/guests/guest-rate-limits');
const { loadStaffIdentity } = await import('../../lib/auth/staff');
const { readDeskToday } = await import('../../lib/desk/desk-today');

const actor = { type: 'system' as const, id: null, label: 'bench' };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Runs `fn` over `items` with at most `width` at a time. */
async function inParallel<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

// --- Arrange: one tenant for the writes, one with a front desk's day for the reads. ---
const PER_RUN = SAMPLES + WARMUP;
const tenantId = (await createTenant({ name: 'Bench' })).id;
const facilityId = (await createFacility({ tenantId, name: 'Main', timeZone: 'UTC', earlyCheckInMinutes: 120 })).id;
const roomCount = RUNS * PER_RUN;
const rooms: string[] = new Array(roomCount);
let calendlyRoom = '';
await inParallel(
  Array.from({ length: roomCount + 1 }, (_, i) => i),
  6,
  async (i) => {
    const room = await createRoom({ tenantId, facilityId, label: `R${i}`, lockDeviceRef: String(900_000 + i) });
    if (i < roomCount) rooms[i] = room.id;
    else calendlyRoom = room.id;
  },
);

/** Reservations (one room each, pre-issued key, guest link) whose check-in is open now: one run's check-ins. */
async function bookForCheckIn(roomIds: string[], startsAt: Date, hours = 24) {
  const made: { reservationId: string; token: string }[] = [];
  for (let i = 0; i < roomIds.length; i += 40) {
    const group = await createBookingGroup({
      tenantId,
      actor,
      source: 'api',
      guest: { name: 'Bench Guest' },
      reservations: roomIds.slice(i, i + 40).map((roomId) => ({
        roomId,
        startsAt,
        endsAt: new Date(startsAt.getTime() + hours * HOUR),
      })),
    });
    made.push(...group.reservations.map((r) => ({ reservationId: r.id, token: r.guestLinkToken })));
  }
  return made;
}
const checkInStart = new Date(Date.now() + 5 * 60_000);
const checkInSets: { reservationId: string; token: string }[][] = [];
for (let run = 0; run < RUNS; run++)
  checkInSets.push(await bookForCheckIn(rooms.slice(run * PER_RUN, (run + 1) * PER_RUN), checkInStart));

const CALENDLY_KEY = 'bench-calendly-signing-key';
const EVENT_TYPE = 'https://api.calendly.com/event_types/BENCH';
await setProviderSecret({ tenantId, provider: 'calendly', value: CALENDLY_KEY, actor });
await addBookingSource({ tenantId, provider: 'calendly', eventType: EVENT_TYPE, roomId: calendlyRoom });

// The desk's tenant: 30 rooms, 12 arrivals today, 12 guests in house (their keys active), stable across runs.
const desk = (await createTenant({ name: 'Bench Desk' })).id;
const deskFacility = (await createFacility({ tenantId: desk, name: 'Desk', timeZone: 'UTC', earlyCheckInMinutes: 120 }))
  .id;
const deskRooms: string[] = [];
for (let i = 0; i < 30; i++)
  deskRooms.push(
    (await createRoom({ tenantId: desk, facilityId: deskFacility, label: `D${i}`, lockDeviceRef: String(800_000 + i) }))
      .id,
  );
const deskUser = (
  await createStaffUser({
    tenantId: desk,
    email: 'bench-desk@example.com',
    password: 'bench-desk-pw',
    role: 'front_desk',
  })
).id;
{
  const start = new Date(Date.now() + 60_000);
  const g = await createBookingGroup({
    tenantId: desk,
    actor,
    source: 'api',
    guest: { name: 'Desk Guest' },
    reservations: deskRooms
      .slice(0, 24)
      .map((roomId) => ({ roomId, startsAt: start, endsAt: new Date(start.getTime() + 2 * DAY) })),
  });
  for (const r of g.reservations.slice(12)) await completeCheckIn({ tenantId: desk, reservationId: r.id, actor });
}

// Statistics as autovacuum would have them on a database in use: measured straight after the arrangement, the
// tables were never analyzed yet, and a plan made then (seq scans of "empty" tables, kept in each connection's plan
// cache for the SQL functions) cost the guest page 2.4 ms per link lookup instead of 0.03 until autovacuum came by.
await admin.query('analyze');
process.stdout.write(`arranged (${f((performance.now() - started) / 1000, 0)} s)\n`);
await admin.query(
  'create table bench_baseline (id bigserial primary key, tenant_id uuid not null, note text not null, created_at timestamptz not null default now())',
);
await admin.query(
  'grant insert, select on bench_baseline to app_service; grant usage on sequence bench_baseline_id_seq to app_service',
);
// The plain driver's connections are the service role for their session (as servicePool's are).
const plain = new pg.Pool({
  connectionString: appUrl,
  max: 8,
  options: `-c role=app_service -c app.tenant_id=${tenantId}`,
});
const login = new pg.Pool({ connectionString: appUrl, max: 8 });

// --- The operations, each as the app runs it. ---
type Op = { name: string; what: string; setup?: (run: number) => void; run: (i: number) => Promise<unknown> };
let run = 0;
let calendlySlot = 0;
let groupSlot = 0;
const address = (i: number) => `10.${run}.${(i >> 8) & 255}.${i & 255}`;
const tokenOf = (i: number) => checkInSets[run]![i % PER_RUN]!.token;
const OPS: Op[] = [
  {
    name: 'baseline: single-row insert transaction (Prisma)',
    what: '`asService(tx => insert …)`: BEGIN, role, one insert, COMMIT through Prisma + adapter-pg',
    run: () =>
      asService((tx) => tx.$executeRaw`insert into bench_baseline (tenant_id, note) values (${tenantId}::uuid, 'x')`),
  },
  {
    name: 'baseline: single-row insert (plain pg)',
    what: 'one autocommit insert on a pg connection whose session role is app_service',
    run: () => plain.query(`insert into bench_baseline (tenant_id, note) values ($1::uuid, 'x')`, [tenantId]),
  },
  {
    name: 'check-in with key',
    what: '`completeCheckIn` (desk action, API POST …/check-in): check-in row, pre-issued key revoked, stay key issued, audit',
    run: (i) => completeCheckIn({ tenantId, reservationId: checkInSets[run]![i]!.reservationId, actor }),
  },
  {
    name: '3-room group booking',
    what: '`bookGroup` (desk, API POST /booking-groups), pre-issued keys, no Stripe configured',
    run: () => {
      const n = groupSlot++;
      const perDay = Math.floor(rooms.length / 3);
      const first = (n % perDay) * 3;
      const startsAt = new Date(Date.UTC(2031, 0, 1) + Math.floor(n / perDay) * DAY);
      return bookGroup({
        tenantId,
        actor,
        source: 'api',
        guest: { name: 'Bench Group', email: 'group@example.com' },
        reservations: [0, 1, 2].map((k) => ({
          roomId: rooms[first + k]!,
          startsAt,
          endsAt: new Date(startsAt.getTime() + DAY),
        })),
      });
    },
  },
  {
    name: 'Calendly invitee.created',
    what: '`receiveCalendlyWebhook` (verify, store) then `processWebhookEvent` (reservation, key, outcome); queueing not included',
    run: async () => {
      const n = calendlySlot++;
      const start = Date.UTC(2032, 0, 1) + n * 2 * HOUR;
      const body = {
        event: 'invitee.created',
        created_at: new Date().toISOString(),
        payload: {
          uri: `https://api.calendly.com/scheduled_events/B/invitees/${n}`,
          name: 'Yui Kato',
          email: 'yui@example.com',
          scheduled_event: {
            start_time: new Date(start).toISOString(),
            end_time: new Date(start + HOUR).toISOString(),
            event_type: EVENT_TYPE,
          },
        },
      };
      const raw = JSON.stringify(body);
      // storeWebhookEvent answers the stored id too; the route only passes `duplicate` on.
      const stored = (await receiveCalendlyWebhook({
        tenantIdParam: tenantId,
        raw: new TextEncoder().encode(raw),
        signature: signCalendly(raw, CALENDLY_KEY),
      })) as { id: string | null; duplicate: boolean };
      if (!stored.id) throw new Error('the delivery was not stored');
      await processWebhookEvent({ eventId: stored.id, attempt: 1, maxAttempts: 10 });
    },
  },
  {
    name: 'guest page view',
    what: '`getGuestPage` (/k/{token}): the stay, the key endpoint’s rate limit, the key — checked-in stay, active key',
    run: (i) => getGuestPage(tokenOf(i), address(i)),
  },
  {
    name: 'guest status poll',
    what: 'GET /api/guest/{token}/status: `getGuestStatus` with its rate limit (`guestStatusLimit`)',
    run: (i) => getGuestStatus(tokenOf(i), { limit: guestStatusLimit(tokenOf(i), address(i)) }),
  },
  {
    name: 'desk arrivals page',
    what: "/desk's data: the staff identity, then `readDeskToday` (the zone and day; keys, check-in windows, offline codes, sync state of its 24 stays)",
    run: async () => {
      await loadStaffIdentity(deskUser, 0);
      await readDeskToday({ tenantId: desk, userId: deskUser });
    },
  },
];

type Statement = { toplevel: boolean; calls: number; ms: number; query: string };
/**
 * pg_stat_statements of this database, by user, top-level flag and query id, but this bench's own reads of it (the
 * owner's, which also runs what security-definer functions run: those count).
 */
async function serverStatements(): Promise<Map<string, Statement>> {
  const { rows } = await admin.query<{ key: string; toplevel: boolean; calls: string; ms: number; query: string }>(
    `select userid::text || ':' || toplevel::text || ':' || queryid::text as key, toplevel, calls,
            total_exec_time + total_plan_time as ms, query
       from pg_stat_statements where dbid = $1 and query not like '%pg_stat_statements%'`,
    [dbid],
  );
  return new Map(rows.map((r) => [r.key, { toplevel: r.toplevel, calls: Number(r.calls), ms: r.ms, query: r.query }]));
}

/** What a measurement collects over its slices: latencies, round trips, and server statements (deltas). */
class Tally {
  latencies: number[] = [];
  trips: Trip[] = [];
  statements = new Map<string, Statement>();
  seconds = 0;

  /** Runs `fn` from `clients` callers for `seconds` (or `count` calls one after another), adding what it cost. */
  async add(fn: (i: number) => Promise<unknown>, options: { count?: number; seconds?: number; clients?: number }) {
    const before = await serverStatements();
    const mark = trips.length;
    counting = true;
    const t0 = performance.now();
    const deadline = t0 + (options.seconds ?? Infinity) * 1000;
    let next = 0;
    await Promise.all(
      Array.from({ length: options.clients ?? 1 }, async () => {
        while (next < (options.count ?? Infinity) && performance.now() < deadline) {
          const i = next++;
          const start = performance.now();
          await fn(i);
          this.latencies.push(performance.now() - start);
        }
      }),
    );
    this.seconds += (performance.now() - t0) / 1000;
    counting = false;
    this.trips.push(...trips.splice(mark));
    for (const [key, after] of await serverStatements()) {
      const was = before.get(key);
      const delta = { ...after, calls: after.calls - (was?.calls ?? 0), ms: after.ms - (was?.ms ?? 0) };
      if (delta.calls <= 0) continue;
      const sum = this.statements.get(key);
      this.statements.set(key, sum ? { ...sum, calls: sum.calls + delta.calls, ms: sum.ms + delta.ms } : delta);
    }
  }
}

type OpCost = {
  name: string;
  n: number;
  trips: number;
  transactions: number;
  setConfig: number;
  nested: number;
  serverMs: number;
  p50: number;
  p99: number;
  throughput: number;
  top: Statement[];
  topNested: Statement[];
  /** graphile-worker's add_job and audit rows, per operation: calls and server ms. */
  jobs: { calls: number; ms: number };
  audits: { calls: number; ms: number };
};

function perOp(statements: Statement[], pattern: RegExp, n: number): { calls: number; ms: number } {
  const matching = statements.filter((st) => pattern.test(st.query));
  return {
    calls: matching.reduce((sum, st) => sum + st.calls, 0) / n,
    ms: matching.reduce((sum, st) => sum + st.ms, 0) / n,
  };
}

function summary(name: string, tally: Tally): OpCost {
  const n = tally.latencies.length;
  const latencies = [...tally.latencies].sort((x, y) => x - y);
  const pct = (p: number) => latencies[Math.min(n - 1, Math.floor(n * p))]!;
  const statements = [...tally.statements.values()];
  const top = statements.filter((st) => st.toplevel).sort((x, y) => y.ms - x.ms);
  const nested = statements.filter((st) => !st.toplevel).sort((x, y) => y.ms - x.ms);
  return {
    name,
    n,
    trips: tally.trips.length / n,
    transactions: tally.trips.filter((t) => t.kind === 'BEGIN/COMMIT').length / 2 / n,
    setConfig: tally.trips.filter((t) => t.kind === 'set_config').length / n,
    nested: nested.reduce((sum, st) => sum + st.calls, 0) / n,
    serverMs: top.reduce((sum, st) => sum + st.ms, 0) / n,
    p50: pct(0.5),
    p99: pct(0.99),
    throughput: n / tally.seconds,
    top: top.slice(0, 3),
    topNested: nested.slice(0, 3),
    jobs: perOp(nested, /graphile_worker\.add_job/i, n),
    audits: perOp(nested, /^\s*insert into audit_events/i, n),
  };
}

// Operations in rounds (CHUNK of each in turn), so a change in the machine's load falls on all of them alike.
const CHUNK = 20;
const opRuns: OpCost[][] = [];
for (run = 0; run < RUNS; run++) {
  const tallies = OPS.map(() => new Tally());
  for (const op of OPS) for (let i = 0; i < WARMUP; i++) await op.run(SAMPLES + i);
  for (let done = 0; done < SAMPLES; done += CHUNK)
    for (const [k, op] of OPS.entries())
      await tallies[k]!.add((i) => op.run(done + i), { count: Math.min(CHUNK, SAMPLES - done) });
  opRuns.push(OPS.map((op, k) => summary(op.name, tallies[k]!)));
  process.stdout.write(`run ${run + 1}: operations measured (${f((performance.now() - started) / 1000, 0)} s)\n`);
}

// --- The wrappers around one SQL function: issue_checkin_key on a check-in that has its key (the hot path). ---
// Each client takes its own check-in from this pool, so no two calls wait on one advisory lock.
const hot = checkInSets[0]!.slice(0, 16).map((r) => r.reservationId);
const hotCheckIns = (
  await admin.query<{ id: string }>(`select id from check_ins where reservation_id = any($1::uuid[])`, [hot])
).rows.map((r) => r.id);
const ISSUE = `select * from issue_checkin_key($1::uuid, $2::uuid, 'system', null, 'bench')`;

/**
 * The wrappers compared, by name. `domain`: what the domain's call of the function goes through today.
 * To compare another wrapper, add one line here.
 */
const WRAPPERS: { name: string; domain?: boolean; call: (checkInId: string) => Promise<unknown> }[] = [
  { name: 'direct: one statement, autocommit, session role (pg)', call: (id) => plain.query(ISSUE, [tenantId, id]) },
  {
    name: 'direct, prepared statement (pg)',
    call: (id) => plain.query({ name: 'bench_issue', text: ISSUE, values: [tenantId, id] }),
  },
  {
    name: 'scopedQuery({ role, tenantId }) — one implicit transaction, one round trip',
    domain: true,
    call: (id) =>
      scopedQuery({ role: 'app_service', tenantId }, [
        `select * from issue_checkin_key(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(id, 'uuid')}, 'system', null, 'bench')`,
      ]),
  },
  {
    name: 'asService({ tenantId }) — Prisma interactive tx',
    call: (id) =>
      asService(
        { tenantId },
        (tx) => tx.$queryRaw`select * from issue_checkin_key(${tenantId}::uuid, ${id}::uuid, 'system', null, 'bench')`,
      ),
  },
  {
    name: 'serviceStatement (prepared, service pool)',
    call: (id) => serviceStatement(statement(ISSUE), [tenantId, id]),
  },
  {
    name: 'pg transaction: BEGIN, set_config, statement, COMMIT',
    call: async (id) => {
      const client = await login.connect();
      try {
        await client.query('begin');
        await client.query(
          `select set_config('role', 'app_service', true), set_config('app.tenant_id', $1, true), set_config('app.user_id', '', true), set_config('app.guest_token_hash', '', true)`,
          [tenantId],
        );
        await client.query(ISSUE, [tenantId, id]);
        await client.query('commit');
      } finally {
        client.release();
      }
    },
  },
];

type WrapperRow = { name: string; domain: boolean; trips: number; serverMs: number; at: OpCost[] };
// Each wrapper in slices of SLICE seconds, taking turns (the first in turn changes every slice).
const SLICE = 0.25;
const wrapperRuns: WrapperRow[][] = [];
const free = [...hotCheckIns];
const onOwnCheckIn = (call: (checkInId: string) => Promise<unknown>) => async () => {
  const id = free.pop()!;
  try {
    await call(id);
  } finally {
    free.push(id);
  }
};
for (const wrapper of WRAPPERS) for (let i = 0; i < 50; i++) await onOwnCheckIn(wrapper.call)();
for (let r = 0; r < RUNS; r++) {
  const at = WRAPPERS.map(() => [new Tally(), new Tally()]);
  const slices = Math.max(1, Math.round(WRAP_SECONDS / SLICE));
  for (let slice = 0; slice < slices; slice++)
    for (const [c, clients] of [1, 8].entries())
      for (let k = 0; k < WRAPPERS.length; k++) {
        const w = (k + slice) % WRAPPERS.length;
        await at[w]![c]!.add(onOwnCheckIn(WRAPPERS[w]!.call), { seconds: SLICE, clients });
      }
  wrapperRuns.push(
    WRAPPERS.map((wrapper, w) => {
      const [one, eight] = at[w]!.map((tally) => summary(wrapper.name, tally)) as [OpCost, OpCost];
      return {
        name: wrapper.name,
        domain: wrapper.domain ?? false,
        trips: one.trips,
        serverMs: one.serverMs,
        at: [one, eight],
      };
    }),
  );
  process.stdout.write(`run ${r + 1}: wrappers measured (${f((performance.now() - started) / 1000, 0)} s)\n`);
}

await admin.end();
await plain.end();
await login.end();
await disconnectDb();
await cluster.stop();

// --- Report. ---
const shorten = (q: string) => {
  const one = q.replace(/\s+/g, ' ').trim();
  return `\`${(one.length > 90 ? `${one.slice(0, 87)}…` : one).replace(/`/g, "'")}\``;
};
function opTable(results: OpCost[]): string {
  const base = results[0]!;
  const lines = [
    '| operation | round trips | transactions | statements in functions | server ms | p50 ms | p99 ms | × insert: round trips | × server ms | × p50 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results)
    lines.push(
      `| ${r.name} | ${f(r.trips, 1)} | ${f(r.transactions, 1)} | ${f(r.nested, 1)} | ${f(r.serverMs, 3)} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.trips / base.trips, 1)} | ${f(r.serverMs / base.serverMs, 1)} | ${f(r.p50 / base.p50, 1)} |`,
    );
  return lines.join('\n');
}
function heavy(results: OpCost[]): string {
  return results
    .slice(2)
    .map((r) => {
      const top = r.top.map((s) => `${f(s.ms / r.n, 3)} ms × ${f(s.calls / r.n, 1)}: ${shorten(s.query)}`).join('; ');
      const nested = r.topNested
        .map((s) => `${f(s.ms / r.n, 3)} ms × ${f(s.calls / r.n, 1)}: ${shorten(s.query)}`)
        .join('; ');
      return `- **${r.name}** (${f(r.serverMs, 3)} ms, ${f(r.trips, 1)} round trips, of which ${f(r.transactions * 2, 1)} BEGIN/COMMIT and ${f(r.setConfig, 1)} role switches). Top-level: ${top}.${nested ? ` Inside functions: ${nested}.` : ''}${r.jobs.calls > 0 ? ` Jobs enqueued (graphile-worker \`add_job\`): ${f(r.jobs.calls, 1)}, ${f(r.jobs.ms, 3)} ms.` : ''}${r.audits.calls > 0 ? ` Audit rows: ${f(r.audits.calls, 1)}, ${f(r.audits.ms, 3)} ms (with the triggers they fire).` : ''}`;
    })
    .join('\n');
}
function wrapperTable(rows: WrapperRow[]): string {
  const direct = rows[0]!;
  const lines = [
    '| wrapper | round trips | server ms | 1 client: calls/s | p50 ms | 8 clients: calls/s | p50 ms | × direct p50 (1 / 8) | direct ÷ throughput (1 / 8) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const w of rows) {
    const [one, eight] = w.at as [OpCost, OpCost];
    const [d1, d8] = direct.at as [OpCost, OpCost];
    lines.push(
      `| ${w.name}${w.domain ? ' (domain)' : ''} | ${f(w.trips, 1)} | ${f(w.serverMs, 3)} | ${f(one.throughput, 0)} | ${f(one.p50)} | ${f(eight.throughput, 0)} | ${f(eight.p50)} | ${f(one.p50 / d1.p50)} / ${f(eight.p50 / d8.p50)} | ${f(d1.throughput / one.throughput)} / ${f(d8.throughput / eight.throughput)} |`,
    );
  }
  return lines.join('\n');
}
/** The worst of p50 ratio and throughput ratio (direct ÷ wrapper) at 1 and 8 clients. */
function overhead(rows: WrapperRow[], w: WrapperRow): number {
  const direct = rows[0]!;
  return Math.max(
    ...[0, 1].flatMap((k) => [w.at[k]!.p50 / direct.at[k]!.p50, direct.at[k]!.throughput / w.at[k]!.throughput]),
  );
}
const verdicts = WRAPPERS.slice(1).map((wrapper, index) => {
  const ratios = wrapperRuns.map((rows) => overhead(rows, rows[index + 1]!));
  const met = ratios.every((x) => x <= WRAPPER_TARGET);
  return `- ${wrapper.name}${wrapper.domain ? ' (what the domain uses)' : ''}: ${ratios.map((x) => `${f(x)}×`).join(', ')} — ${met ? 'met' : 'MISSED'}`;
});
const seconds = (performance.now() - started) / 1000;
const loadAfter = loadavg();

const body = `
Command: \`npm run bench:db\` (in one process against an embedded PostgreSQL of its own under \`.data/bench-db\`, started with
\`shared_preload_libraries=pg_stat_statements\`, \`pg_stat_statements.track=all\` and \`track_planning=on\`; ${SAMPLES} operations of each kind,
one at a time, after ${WARMUP} untimed ones, in rounds of ${CHUNK} of each kind in turn; then each wrapper for ${WRAP_SECONDS} s at 1 and at 8 clients, in
turns of ${SLICE} s; everything measured twice; the machine's load falls on every row alike, but it is in every figure).
Machine: ${machine()}. Run: ${new Date().toISOString()}, ${f(seconds, 0)} s; load average before ${loadBefore.map((x) => f(x)).join(' / ')}, after ${loadAfter.map((x) => f(x)).join(' / ')}.

What the figures are, per operation:
- **round trips**: queries the pg driver sent (\`pg.Client.prototype.query\` counted in-process: Prisma's adapter, the pools and
  plain clients all end there), BEGIN, COMMIT and the role switch (\`select set_config('role', …)\`) included; one round trip is
  one protocol exchange (parse/bind/execute/sync for a parameterised query).
- **transactions**: BEGIN/COMMIT pairs. **statements in functions**: statements PL/pgSQL and SQL functions ran (nested, counted by
  pg_stat_statements with \`track=all\`).
- **server ms**: pg_stat_statements' \`total_exec_time + total_plan_time\` of the top-level statements (\`toplevel = true\`, which
  already include what runs inside them; nested rows are listed separately below, never added), per operation.
- **p50 / p99 ms**: the client's wall time per operation, one at a time (no concurrency), so it is latency, not throughput.
- **× insert**: ratio to the single-row insert transaction through the same driver (Prisma + adapter-pg) in the same run.

${opRuns.map((results, i) => `Run ${i + 1}:\n\n${opTable(results)}`).join('\n\n')}

Where the server time goes (run ${RUNS}; ms per operation × statements per operation):
${heavy(opRuns[RUNS - 1]!)}

### The wrapper around a SQL function

\`issue_checkin_key\` on check-ins that already have their key (the hot path of the key endpoint and the guest page), each client on
a check-in of its own. "direct" is one autocommit statement on a pg connection whose session is already the service role with the
tenant set: the function with nothing around it. Target: the wrapper the domain uses costs at most ${WRAPPER_TARGET}× direct (p50
and throughput, at 1 and 8 clients).

${wrapperRuns.map((rows, i) => `Run ${i + 1}:\n\n${wrapperTable(rows)}`).join('\n\n')}

Worst ratio to direct over p50 and throughput at 1 and 8 clients, per run (target ≤ ${WRAPPER_TARGET}×):
${verdicts.join('\n')}
`;
// What the figures above led to, measured with this bench before and after (kept with the bench so the section says it).
const FINDINGS = `
### What is heavy, and what was changed

Round trips per operation as this bench counted them after each change (same bench, same operations; "—" where no run was kept):

| operation | first run (2026-12-01) | the db-cost pass | decision 018 | decision 019 (2026-12-02) |
|---|---:|---:|---:|---:|
| check-in with key | 12 | 10 | 1 | 1 |
| 3-room group booking (with \`bookGroup\`'s answer) | 14 | — | 9 | 3 |
| Calendly invitee.created (store, then process) | 18 | — | 18 | 4 |
| guest page view | 20 | 10 | 6 | 1 |
| guest status poll | 13 | 10 | 6 | 1 |
| desk arrivals page (staff identity + the page's reads) | 40 | — | 40 | 3 |

- **decision 018**: the check-in is \`app_complete_check_in\` in one \`scopedQuery\` (p50 21.9 → 7 ms in an A/B); a
  group booking's hold one \`scopedQuery\`; a guest link's reads one.
- **decision 019**: reads are composable statements (\`Statement\`, \`runStatements\`) that share a round trip. The
  guest's rate limit is counted in the round trip of the link's reads; the desk's page reads in two round trips (the zone
  and the day; then keys, check-in windows, offline codes and sync state of its stays) after the staff identity's one; a
  provider's create is \`app_create_provider_booking\` (lock, later-cancel check, mapping, replay check, hold) and the
  processed event's outcome and its source's success one \`scopedQuery\`, so Calendly's create is the inbox insert, the
  event's read, the create and the outcome; \`bookGroup\`'s answer is one statement (\`reservationViewsSql\`, shared with
  GET /reservations), after the hourly rules' read and the hold.
- **decision 024** (2026-12-03): a stay change (check-out, move, new dates) is its SQL function and the reservation
  read back as one \`runStatements\`: 7 round trips → 1, counted by \`lib/stays/stay-change.test.ts\` (this bench runs no
  stay change; the operations above send the same statements as before).
- The bench runs \`ANALYZE\` after arranging its data: measured on tables never analyzed, a plan made early (kept in a
  connection's plan cache for the SQL functions) made the guest page's link lookup 2.4 ms instead of 0.03 and Calendly's
  PIN-per-lock check 15 ms, until autovacuum came by. A database in use has its statistics.
- Migration 20261202060000_db_cost: \`app_current_tenant()\`, \`app_current_user()\` and \`app_guest_token_hash()\` are inlinable,
  so policies no longer call a function per row; \`access_keys (tenant_id, reservation_id, created_at desc)\` (a
  reservation's keys were read by scanning every key of the tenant, a cost that grew with history);
  \`key_lock_codes (tenant_id, lock_id) where state not in ('removed', 'failed')\` for the PIN-per-lock check.

Where the server time goes now (the lines above): **the 3-room group booking and the Calendly create** are the heaviest,
\`reserve_booking_group\` 90–95 % of them. Per reservation it writes the reservation, its guest link, a pre-issued key
(PIN, a door row per lock with the one-live-PIN-per-lock check), two audit rows (whose trigger queues the guest's message)
and queues the key's vendor jobs: graphile-worker's \`add_job\` is about a third of it, the audit rows with their triggers
most of the rest. **The desk's page** is mostly the check-in windows (\`app_room_free_until_start\` per arrival). **The guest
page** is the link's read through the guest's policies (\`app_guest_link_reservation()\`, a few dozen calls per read).

The wrapper: \`scopedQuery\` (one implicit transaction, one round trip) is what the domain uses for every SQL function people
and integrations wait on, within the 1.3× target above. \`asService\`, Prisma's interactive transaction, costs 3.4–5×
direct: the four round trips (BEGIN, set_config, statement, COMMIT) are about a third of that — the plain pg transaction
with the same round trips costs 1.6–2.2× — and Prisma's transaction manager and query interpreter the rest. It stays for
work that needs the process between statements (the worker's vendor calls, the cancel path of a provider booking, manager
pages); \`serviceStatement\` (prepared, on service-role sessions) is at 0.6–0.9× direct.
`;

writeSection('Database cost per operation', `${body}\n${FINDINGS}`);
process.stdout.write(`${body}\n${FINDINGS}`);
process.exit(0);
