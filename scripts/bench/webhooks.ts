// `npm run bench:webhooks`: Stripe webhook acknowledgement at a fixed 250 deliveries a second
// (p99 < 50 ms, no non-2xx) with the worker idle and right after a burst of 1,500 deliveries the
// worker is still processing (events that do real work), and at saturation against the same
// server's empty route handler. The load comes from a process of its own (load-generator.ts).
// Each figure twice; writes docs/PERFORMANCE.md.
import { spawn } from 'node:child_process';
import pg from 'pg';
import { CHAOS_SECRETS, System } from '../chaos/harness';
import { cpuByPart, cpuPerOp, latencyAt, machine, throughputOf, writeSection } from './harness';
import type { LoadEvent, Phase, PhaseResult, Sample } from './load-generator';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = 250;
const BURST = 1500;
const CONCURRENCY = 32;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 8);
const DEBUG = Boolean(process.env.BENCH_DEBUG);
const log = (line: string) => DEBUG && process.stdout.write(`${line}\n`);

// What changed to get here (kept in the section, whatever the run's figures).
const HISTORY = `How the targets were reached (2026-11-30). The first version saturated at 103–116 deliveries a second
against 405–500 for the empty route (0.23×), and could not hold 250/s (p99 of seconds). Profiles of
each process (\`node --cpu-prof\` through \`WEB_NODE_ARGS\`/\`WORKER_NODE_ARGS\`, a server build with
\`NEXT_SERVER_MINIFY=0\`, and pg_stat_statements) found, in order of effect:
1. graphile-worker's \`add_job\` in the acknowledging transaction: ~1 ms of server CPU per delivery, and
   growing with the queue's length (its generic plan scans the jobs table: 2.4 ms at 9 000 jobs). The
   route now only stores the event; the worker's relay queues stored events with one \`add_jobs\` call
   per batch (migration 20261130070000), and \`app_enqueue_job\` runs with custom plans.
2. Prisma's interactive transaction: ~1.2 ms of Node CPU per delivery for BEGIN / role switch / COMMIT.
   The inbox and the worker's event bookkeeping use \`serviceStatement\` (one prepared statement, one
   round trip, on connections that are the service role for their session).
3. A \`new Stripe()\` per delivery for signature checks (5% of the web process); now built once.
4. The proxy (middleware) ran for API routes and copied each body: ~40% of the empty route's own cost.
   The webhook routes and the empty route now skip it (this raised the baseline too: 450–500 → 700–900 req/s).
5. Loopback TCP to PostgreSQL: a Unix socket costs about half the CPU per round trip here.
6. Scavenges in the web process: \`--max-semi-space-size=16\` for web processes.
7. The worker's bursts competing with acknowledgements: the worker runs niced (\`WORKER_NICE\`, default 10)
   and relays every 250 ms (fewer, larger batches).
The load generator uses undici's pool (half the CPU of node:http's client) and both routes are warmed
up for 8 s before the first measurement (the first seconds after start are the JIT's).

Acknowledgement while the worker is busy (issue 16, 2026-12-01). Measured from outside (\`npm start\`,
load from another process), 250/s right after a burst of 1,500 had p99 456–1,088 ms; this bench said
"met" because every run began with the worker idle, its events were stored and ignored, and the load
generator ran inside the bench's own process. Scenario 3 above is that measurement; the load generator
now runs in a process and a session of its own. What the profiles showed:
1. Autogroup scheduling (\`/proc/sys/kernel/sched_autogroup_enabled\` = 1 here, the kernel's default):
   the CPU is shared between sessions first, and a nice value counts only inside its session.
   PostgreSQL calls setsid() in every backend, so each backend is a scheduling group of its own.
   \`WORKER_NICE\` niced the worker's Node process, but not the backends running its SQL: while a
   burst was processed, each busy backend of the worker (four job slots, graphile-worker's fetch and
   completion, the relay) weighed as much as the whole launcher session, web process included, and
   the web process got a fraction of a core. The worker now renices each backend it connects to
   (setpriority and \`/proc/<pid>/autogroup\`, lib/worker/renice-backends.ts) when \`WORKER_DB_NICE\`
   is set; the launcher and the benches set it (to \`WORKER_NICE\`, 10) only when they run the
   embedded server. A pid that is not a local \`postgres\` process is skipped and a refusal is logged
   once, never fatal. With an operator's \`DATABASE_URL\` nothing is reniced: the backends are on the
   operator's server (on another host they do not take the web process's CPU; on this host the
   operator may set \`WORKER_DB_NICE\` when the worker runs as the server's user or root). Measured on
   a machine loaded by other work (load average ~15), scenario 3 alone, one run each: p99 12.9 s with
   \`WORKER_DB_NICE=0\`, 3.7 s with 10 — the same machine, minutes apart.
2. The worker's own SQL: every Stripe payment event found its group's reservations by
   \`booking_group_id\`, which no index served — a sequential scan of all reservations per event
   (6 ms of server CPU at 4 000 reservations, seen in pg_stat_activity and EXPLAIN during the run;
   at part 4's million reservations it would be most of a second per event). Migration
   20261202040000 adds the index; less CPU for the worker's backends is less taken from the web.
3. Wait events of busy backends during scenario 3 (pg_stat_activity every 500 ms): CPU first, then
   \`IO:WalSync\` and \`LWLock:WALWrite\` (about a third of the samples): fdatasync takes ~6 ms on this
   disk under load, and every acknowledgement waits for one flush, shared (group commit) with the
   worker's commits. Left as it is: acknowledged means committed (no \`synchronous_commit = off\`).
4. No lock waits between the inbox insert and the worker's updates of \`webhook_events\` (no
   \`Lock:*\` wait events): the relay's \`FOR UPDATE SKIP LOCKED\` and the processing updates touch
   rows the inserts never wait for.
With the backends reniced and the index in place (quiet machine, load average under 2), 250/s right
after the burst was acknowledged at p99 99–146 ms (the issue measured 456–1,088 ms) — and at 88–114 ms
with the worker idle, so the tail was no longer the worker's processing (it stayed with no worker at
all). What that tail was (2026-12-01, a preload logging the web process's GC pauses and event-loop
stalls with their CPU time, pg_stat_activity every 10 ms, and a CPU profile cut to the measured
windows):
1. The web process's main thread was two-thirds busy at 250/s (2.6 ms of CPU per delivery) and its
   stalls of 30–130 ms were its own work (CPU time equal to the stall), not CPU taken by others; the
   profile put most of it in Next.js's request pipeline around the handler — routing and rewrites,
   the Node request turned into web streams and back, tracing, async storages, abort signals — and
   little in ours (HMAC, JSON, the insert). A larger young generation (\`--max-semi-space-size=64\`)
   made it worse (p99 149–166 ms). Fixed by decision 017: the web process is scripts/web-server.mjs,
   Next.js behind a node:http server whose fast lane (lib/api/fast-lane.mjs) hands the webhooks (and
   the API's three hot addresses) to their route handlers as Next.js built them, without that pipeline:
   p50 3.2 → 1.8 ms, and the web thread is mostly idle at 250/s. Since decision 023 (2026-12-03) the
   lane hands every address below /api/v1, /api/webhooks and /api/guest to the one Hono router
   (lib/api/router.ts) through its documented fetch, with no Next.js internals.
2. What remains in the tail is the WAL flush every acknowledgement waits for. In one 10 s window of
   these experiments one flush stalled for ~250 ms (every backend in \`LWLock:WALWrite\` behind one
   \`IO:WalSync\`); a plain fdatasync loop on this disk has p50 0.06 ms and a max of 121 ms in 10 s.
   250 deliveries a second for 10 s is 2,500, so p99 is the 25th slowest: one stall of 100 ms in a
   window delays about 25 acknowledgements behind it and misses the target whatever the web process
   does. Acknowledged still means committed (no \`synchronous_commit = off\` for the inbox).
3. During a burst, the worker's own commits added flushes the acknowledgements queued behind: per job,
   graphile-worker's fetch and completion each waited for a flush, besides the task's own work. The
   job queue's connections now commit without waiting (\`queuePoolConfig\` in lib/worker/run-worker.ts,
   \`synchronous_commit = off\` for them alone): a lost fetch or completion after a server crash re-runs
   the job, as a worker killed mid-job does, which every task already tolerates; the tasks' work and the
   inbox stay durable. \`LWLock:WALWrite\` samples during scenario 3 fell from 26–39 to 12–15.
What is left: the margin after a burst is thin. The two benches after both changes had scenario 3 at
p99 84 / 36 ms (one second of the first run at p99 123 ms, the others 8–46 ms: MISSED once) and at
46 / 28 ms (met, the run in the table above). The spikes are the same flush stalls, more likely while
the worker writes; the worker's own tasks still wait for their flushes, and only a faster disk, or
PostgreSQL's WAL on a device of its own, takes the rest away.
The run in the table above (2026-12-02, 06:14 UTC, on a quiet machine: nothing else running) met every target in both
runs: the idle worker's p99 7.3 / 19.2 ms, after the burst 11.6 / 12.4 ms, saturation 1.14 / 1.00×. The bench before
it (01:18 UTC the same day, after decision 019, on a machine shared with other work) met scenario 3 in both runs
(p99 39 / 26 ms) but missed the idle-worker scenario once (p99 54 ms; 18.5 ms in its other run) — the same flush
stalls, which do not care whether the worker is busy. So three of the last four runs met every target and the
fourth missed by 4 ms: one flush stall of 100 ms in a 10 s window still misses it, whatever the application does.
The saturation ratio's baseline is the empty route as Next.js serves it (\`/api/ping\` stays out of the
fast lane): the framework's cost of answering at all, the baseline of every figure here. The fast
lane's own empty answer is about 5,000–5,800 a second on this machine (measured once with /api/ping in
the lane); a durable insert per delivery keeps the webhook well below that (0.18–0.19×).
The table above was measured with the one router (decision 023); the saturation ratio is against the same
run's empty route. A single stall of a few tens of milliseconds in a 10 s window (a WAL flush, a
checkpoint, the machine's other work) is enough to miss the idle-worker p99 in one run.`;

const system = new System('bench-webhooks');
await system.start({ webs: 1, workers: WORKERS });
if (process.env.BENCH_PG_STATS) {
  // Profiling only: pg_stat_statements needs a restart of the server (the processes reconnect).
  const owner = new pg.Client({ connectionString: system.adminUrl });
  await owner.connect();
  await owner.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
  await owner.end();
  await system.stopDatabase();
  await system.startDatabase();
}
const db = new pg.Client({ connectionString: system.adminUrl });
await db.connect();
if (process.env.BENCH_PG_STATS) await db.query('create extension if not exists pg_stat_statements');

// The load generator: its own Node process, as a provider's deliveries come from outside.
const load = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/load-generator.ts'], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, LOAD_URL: system.webUrl(0), STRIPE_WEBHOOK_SECRET: CHAOS_SECRETS.stripeWebhook },
  // A session of its own, as a load generator started from another terminal: with the kernel's
  // autogroup scheduling, a session is a scheduling group, and the CPU is shared between groups first.
  detached: true,
});
process.once('exit', () => load.kill('SIGKILL'));
const PING = { path: '/api/ping', method: 'GET', headers: {} } as const;
const phase = (p: Phase) =>
  new Promise<Sample[]>((resolve) => {
    load.once('message', (message: PhaseResult) => resolve(message.samples));
    load.send(p);
  });

// Booking groups whose intents the burst's events pay (or fail): each event does the real work
// of marking a group paid or recording a failed payment (audit rows, a billing failure).
const { createBookableTenant } = await import('../../tooling/testing/fixtures');
const { createBookingGroup } = await import('../../lib/bookings/create-booking-group');
const GROUPS = BURST + RATE * SECONDS;
const ROOMS = 20;
const tenants = await Promise.all([0, 1].map(() => createBookableTenant({ rooms: ROOMS, lockDevices: false })));
const intents: string[] = [];
{
  const started = performance.now();
  let next = 0;
  const day = 86_400_000;
  const epoch = Date.UTC(2031, 0, 1);
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < GROUPS) {
        const i = next++;
        const tenant = tenants[i % 2]!;
        const slot = Math.floor(i / 2);
        const startsAt = new Date(epoch + Math.floor(slot / ROOMS) * day);
        const intentId = `pi_bench_${i}`;
        await createBookingGroup({
          tenantId: tenant.tenantId,
          actor: { type: 'system', id: null, label: 'bench' },
          guest: { name: `Bench ${i}` },
          source: 'api',
          preIssueKeys: false,
          paymentIntentId: intentId,
          reservations: [
            { roomId: tenant.roomIds[slot % ROOMS]!, startsAt, endsAt: new Date(startsAt.getTime() + day) },
          ],
        });
        intents[i] = intentId;
      }
    }),
  );
  log(`${GROUPS} booking groups in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
// Run 1 pays even groups and fails odd ones; run 2 the other way round: every event does work.
const realEvents = (run: number): LoadEvent[] =>
  intents.map((intentId, i) => ({
    type: (i + run) % 2 === 0 ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
    intentId,
  }));

const backlog = async () =>
  Number((await db.query(`select count(*) from webhook_events where status = 'received'`)).rows[0].count);
/** Waits until the worker has processed every stored event; returns the seconds it took (NaN: not in 10 minutes). */
async function drain(): Promise<number> {
  const started = performance.now();
  while ((await backlog()) > 0) {
    // Reported, not thrown: on a machine busy with other work the niced worker may take long.
    if (performance.now() - started > 600_000) return Number.NaN;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return (performance.now() - started) / 1000;
}

const pct = latencyAt;
const bad = (samples: Sample[]) => samples.filter((s) => s[2] < 200 || s[2] >= 300).length;
const throughput = throughputOf;
function perSecond(label: string, samples: Sample[]): void {
  for (let sec = 0; sec < SECONDS; sec++) {
    const slice = samples.filter((s) => s[0] >= sec * 1000 && s[0] < (sec + 1) * 1000);
    log(`${label} second ${sec}: p50 ${pct(slice, 0.5).toFixed(1)} p99 ${pct(slice, 0.99).toFixed(1)}`);
  }
}

// Warm up both routes (the JIT, the pools, the prepared statements) under load, untimed.
await phase({ op: 'saturate', request: PING, seconds: WARMUP, concurrency: CONCURRENCY });
await phase({ op: 'saturate', seconds: WARMUP, concurrency: CONCURRENCY });
if (WORKERS > 0) await drain();
if (process.env.BENCH_PG_STATS) await db.query('select pg_stat_statements_reset()');

type Cpu = { part: string; ms: number }[];
const idleRuns: { p50: number; p99: number; bad: number }[] = [];
const satRuns: { webhook: number; empty: number; emptyCpu: Cpu; hookCpu: Cpu; drain: number }[] = [];
const burstRuns: {
  burstSeconds: number;
  burstP99: number;
  p50: number;
  p99: number;
  max: number;
  bad: number;
  backlogAtStart: number;
  peak: number;
  series: number[];
  drain: number;
  cpu: Cpu;
  waits: Map<string, number>;
}[] = [];

// BENCH_ONLY=burst runs scenario 3 alone (profiling; the section is not written then).
const ONLY_BURST = process.env.BENCH_ONLY === 'burst';
for (let run = 1; run <= Number(process.env.BENCH_RUNS ?? 2); run++) {
  if (!ONLY_BURST) await idleAndSaturation(run);
  await afterBurst(run);
}

async function idleAndSaturation(run: number): Promise<void> {
  // 1. The worker idle: stored-and-ignored events at 250/s.
  const idle = await phase({ op: 'fixed', rate: RATE, seconds: SECONDS });
  perSecond(`run ${run} idle`, idle);
  idleRuns.push({ p50: pct(idle, 0.5), p99: pct(idle, 0.99), bad: bad(idle) });
  if (WORKERS > 0) await drain();

  // 2. Saturation: the empty route, then the webhook route (stored-and-ignored events).
  let cpu = cpuByPart();
  const empty = await phase({ op: 'saturate', request: PING, seconds: SECONDS, concurrency: CONCURRENCY });
  const emptyCpu = cpuPerOp(cpu, cpuByPart(), empty.length);
  cpu = cpuByPart();
  const hook = await phase({ op: 'saturate', seconds: SECONDS, concurrency: CONCURRENCY });
  const hookCpu = cpuPerOp(cpu, cpuByPart(), hook.length);
  satRuns.push({
    webhook: throughput(hook),
    empty: throughput(empty),
    emptyCpu,
    hookCpu,
    drain: WORKERS > 0 ? await drain() : 0,
  });
}

async function afterBurst(run: number): Promise<void> {
  // 3. A burst of 1,500 deliveries that do real work, then at once 250/s while the worker works
  //    through them; the backlog (stored, not yet processed) is sampled every 500 ms until it drains.
  const events = realEvents(run);
  const series: number[] = [];
  const waits = new Map<string, number>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      series.push(await backlog());
      // What the busy backends wait on (pg_stat_activity), summed over the samples.
      const { rows } = await db.query(
        `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait, count(*)::int as n
           from pg_stat_activity where state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()
          group by 1`,
      );
      for (const row of rows) waits.set(row.wait, (waits.get(row.wait) ?? 0) + row.n);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  const cpu = cpuByPart();
  const burstStarted = performance.now();
  const burst = await phase({ op: 'burst', concurrency: CONCURRENCY, events: events.slice(0, BURST) });
  const burstSeconds = (performance.now() - burstStarted) / 1000;
  const backlogAtStart = await backlog();
  const fixed = await phase({ op: 'fixed', rate: RATE, seconds: SECONDS, events: events.slice(BURST) });
  const burstCpu = cpuPerOp(cpu, cpuByPart(), burst.length + fixed.length);
  perSecond(`run ${run} after burst`, fixed);
  const drained = WORKERS > 0 ? await drain() : 0;
  sampling = false;
  await sampler;
  burstRuns.push({
    burstSeconds,
    burstP99: pct(burst, 0.99),
    p50: pct(fixed, 0.5),
    p99: pct(fixed, 0.99),
    max: pct(fixed, 1),
    bad: bad(burst) + bad(fixed),
    backlogAtStart,
    peak: Math.max(...series),
    series,
    drain: drained,
    cpu: burstCpu,
    waits,
  });
}

const {
  rows: [counts],
} = await db.query(`select count(*)::int as stored,
  count(*) filter (where type like 'payment_intent.%' and type <> 'payment_intent.created' and status = 'processed')::int as processed,
  count(*) filter (where type like 'payment_intent.%' and type <> 'payment_intent.created' and status <> 'processed')::int as not_processed,
  count(*) filter (where queued_at is null)::int as unqueued from webhook_events`);
const {
  rows: [work],
} = await db.query(`select (select count(*) from reservations where paid_at is not null)::int as paid,
  (select count(*) from audit_events where action in ('reservation.paid', 'reservation.payment_failed'))::int as audited`);
let statements = '';
if (process.env.BENCH_PG_STATS) {
  const { rows } = await db.query(
    `select calls, round(total_exec_time::numeric, 0) as ms, round((total_exec_time / calls)::numeric, 3) as per_call, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query
       from pg_stat_statements order by total_exec_time desc limit 15`,
  );
  statements = rows.map((r) => `${r.calls}\t${r.ms} ms\t${r.per_call}\t${r.query}`).join('\n');
  process.stdout.write(`${statements}\n`);
}
await db.end();
load.disconnect();
await system.stop();

if (ONLY_BURST)
  burstRuns.forEach((b, i) =>
    process.stdout.write(
      `run ${i + 1} after burst: p50 ${b.p50.toFixed(1)} p99 ${b.p99.toFixed(1)} max ${b.max.toFixed(0)} non-2xx ${b.bad}\n`,
    ),
  );
const lines = [
  `| run | worker idle, 250/s: p50 ms | p99 ms | non-2xx | after a burst of ${BURST}, 250/s: p50 ms | p99 ms | max ms | non-2xx | saturation: webhook req/s | empty route req/s | ratio |`,
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
idleRuns.forEach((r, i) => {
  const s = satRuns[i]!;
  const b = burstRuns[i]!;
  lines.push(
    `| ${i + 1} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.bad} | ${b.p50.toFixed(1)} | ${b.p99.toFixed(1)} | ${b.max.toFixed(0)} | ${b.bad} | ${s.webhook.toFixed(0)} | ${s.empty.toFixed(0)} | ${(s.webhook / s.empty).toFixed(2)} |`,
  );
});
const met = (ok: boolean[]) =>
  ok.every(Boolean) ? 'met (both runs)' : ok.some(Boolean) ? 'MISSED (one run)' : 'MISSED (both runs)';
const verdicts = [
  `- Fixed 250/s with the worker idle, p99 < 50 ms and no non-2xx: ${met(idleRuns.map((r) => r.p99 < 50 && r.bad === 0))}.`,
  `- Fixed 250/s right after a burst of ${BURST} the worker is processing, p99 < 50 ms and no non-2xx: ${met(burstRuns.map((r) => r.p99 < 50 && r.bad === 0))}.`,
  `- Saturation ≥ 0.5× the empty route handler as Next.js serves it (${CONCURRENCY} connections): ${met(satRuns.map((s) => s.webhook / s.empty >= 0.5))}.`,
];
const processing = burstRuns.map(
  (b, i) =>
    `- Run ${i + 1}: the burst took ${b.burstSeconds.toFixed(1)} s to deliver (its own p99 ${b.burstP99.toFixed(0)} ms); ` +
    `${b.backlogAtStart} events waited when the 250/s window began, at most ${b.peak}; ` +
    `the backlog every 5 s from the burst's start: ${b.series.filter((_, j) => j % 10 === 0).join(' → ')}; ` +
    `${Number.isNaN(b.drain) ? 'it had not drained 600 s after the window ended' : `it drained ${b.drain.toFixed(1)} s after the window ended`}. ` +
    `Busy backends' wait events (samples): ${[...b.waits]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 5)
      .map(([w, n]) => `${w} ${n}`)
      .join(', ')}.`,
);
const cpuLine = (label: string, rows: Cpu[]) =>
  `- ${label}: ${rows.map((run, i) => `run ${i + 1}: ${run.map((r) => `${r.part} ${r.ms.toFixed(2)}`).join(', ')}`).join('; ')}.`;
const cpuLines = [
  'CPU milliseconds per request, by part of the system (read from /proc; 2 cores = 2 000 ms per second in all):',
  cpuLine(
    'empty route at saturation',
    satRuns.map((s) => s.emptyCpu),
  ),
  cpuLine(
    'webhook at saturation (stored and ignored)',
    satRuns.map((s) => s.hookCpu),
  ),
  cpuLine(
    'burst and 250/s window, processing included (per delivery)',
    burstRuns.map((b) => b.cpu),
  ),
].join('\n');

const body = `
Command: \`${WORKERS === 1 ? '' : `BENCH_WORKERS=${WORKERS} `}npm run bench:webhooks\` (${SECONDS} s per fixed-rate and saturation measurement, each measured twice; one web process in production mode and ${WORKERS} worker(s) as \`npm start\` runs them, embedded PostgreSQL, all on this machine; the load generator is a Node process of its own, scripts/bench/load-generator.ts, with undici).
Machine: ${machine()}. Run: ${new Date().toISOString()}.

Scenarios, in each run: (1) 250/s of stored-and-ignored events with the worker idle; (2) saturation, ${CONCURRENCY} connections, of the empty route then of the webhook route; (3) a burst of ${BURST} deliveries as fast as ${CONCURRENCY} connections send them, then at once 250/s for ${SECONDS} s — every event a \`payment_intent.succeeded\` or \`payment_intent.payment_failed\` for a booking group that exists (marking it paid, or auditing the failure and recording a billing failure), so the worker is busy throughout.

${lines.join('\n')}

${verdicts.join('\n')}

Processing lag in scenario 3 (processing may lag; acknowledgement may not):
${processing.join('\n')}
- In all: ${counts.stored} deliveries stored; of the payment events, ${counts.processed} processed and ${counts.not_processed} not; ${counts.unqueued} left unqueued; ${work.paid} reservations paid and ${work.audited} payment audit rows.

${cpuLines}

${HISTORY}
`;
if (!ONLY_BURST) writeSection('Webhook acknowledgement', body);
if (!ONLY_BURST) process.stdout.write(body);
process.exit(0);
