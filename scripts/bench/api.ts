// `npm run bench:api`: an authenticated API call at saturation against the same server's empty route
// (issue 16, part 1: at least half its throughput). One production web process and one worker on an
// embedded PostgreSQL; the load comes from a separate Node process (scripts/bench/load-generator.ts,
// undici, 32 connections). Two runs; writes its section of docs/PERFORMANCE.md.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { System } from '../chaos/harness';
import { cpuByPart, cpuPerOp, latencyAt, machine, processTree, throughputOf, writeSection } from './harness';
import type { LoadRequest, PhaseResult, Sample } from './load-generator';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 4);
const CONNECTIONS = 32;
const ROOMS = 30;
const TARGET = 0.5;

// The bench's key must never be refused (so the full rate-limit path runs, but nothing is 429):
// the web process reads its limit from these (README, Configuration).
process.env.API_RATE_BURST ??= '1000000';
process.env.API_RATE_PER_SECOND ??= '1000000';

const DIST = process.env.NEXT_DIST_DIR ?? '.next';
/** Whether the production build is missing or older than a source file it is built from. */
function buildIsStale(): boolean {
  const buildId = path.join(process.cwd(), DIST, 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  const sources = execFileSync('git', ['ls-files', 'app', 'lib', 'components', 'proxy.ts'], { encoding: 'utf8' });
  return sources
    .split('\n')
    .filter((file) => file && existsSync(file))
    .some((file) => statSync(file).mtimeMs > builtAt);
}
if (process.env.BENCH_BUILD === '1' || (process.env.BENCH_BUILD !== '0' && buildIsStale())) {
  process.stdout.write('building (npm run build)…\n');
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
}

const loadAtStart = loadavg()[0]!;
const system = new System('bench-api');
await system.start({ webs: 1, workers: 1 });
const origin = system.webUrl(0);

// One tenant of 30 rooms, a stay in each (one booking group), one of them checked in.
const { createBookableTenant, TEST_ACTOR } = await import('../../tooling/testing/fixtures');
const { createApiKey } = await import('../../lib/auth/api-keys');
const { createBookingGroup } = await import('../../lib/bookings/create-booking-group');
const tenant = await createBookableTenant({ name: 'Bench API', rooms: ROOMS });
const { key } = await createApiKey({ tenantId: tenant.tenantId, name: 'bench', actor: TEST_ACTOR });
const startsAt = new Date(Date.now() + 3_600_000);
const endsAt = new Date(startsAt.getTime() + 24 * 3_600_000);
const group = await createBookingGroup({
  tenantId: tenant.tenantId,
  actor: TEST_ACTOR,
  guest: { name: 'Bench Guest' },
  source: 'api',
  reservations: tenant.roomIds.map((roomId) => ({ roomId, startsAt, endsAt })),
});
const auth = { authorization: `Bearer ${key}` };
const checkIn = await fetch(`${origin}/api/v1/reservations/${group.reservations[0]!.id}/check-in`, {
  method: 'POST',
  headers: { ...auth, 'content-type': 'application/json' },
  body: '{}',
});
if (!checkIn.ok) throw new Error(`check-in failed: ${checkIn.status} ${await checkIn.text()}`);
const { checkInId } = ((await checkIn.json()) as { data: { checkInId: string } }).data;

type Route = { name: string; path: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };
const EMPTY: Route = { name: 'empty route (GET /api/ping)', path: '/api/ping', method: 'GET', headers: {} };
const CALLS = (
  [
    {
      name: 'POST /api/v1/check-ins/{id}/key',
      path: `/api/v1/check-ins/${checkInId}/key`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'content-length': '2' },
      body: '{}',
    },
    { name: 'GET /api/v1/rooms', path: '/api/v1/rooms', method: 'GET', headers: auth },
    { name: 'GET /api/v1/reservations', path: '/api/v1/reservations', method: 'GET', headers: auth },
  ] satisfies Route[]
).filter((route: Route) => !process.env.BENCH_ONLY || route.name.includes(process.env.BENCH_ONLY));

// The load generator: a Node process of its own, for the whole bench (one phase per measurement).
const loader = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/load-generator.ts'], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, LOAD_URL: origin },
});
process.once('exit', () => loader.kill('SIGKILL'));

type LoadResult = { requests: number; throughput: number; p50: number; p99: number; statuses: Record<string, number> };
function summary(samples: Sample[]): LoadResult {
  const statuses: Record<string, number> = {};
  for (const [, , status] of samples) statuses[status] = (statuses[status] ?? 0) + 1;
  return {
    requests: samples.length,
    throughput: throughputOf(samples),
    p50: latencyAt(samples, 0.5),
    p99: latencyAt(samples, 0.99),
    statuses,
  };
}

/** Saturates one route from the load process; CPU per request by part, read from /proc meanwhile. */
async function load(route: Route, seconds: number) {
  const request: LoadRequest = { path: route.path, method: route.method, headers: route.headers, body: route.body };
  const before = cpuByPart(processTree());
  const answer = await new Promise<PhaseResult>((resolve) => {
    loader.once('message', (message: PhaseResult) => resolve(message));
    loader.send({ op: 'saturate', request, seconds, concurrency: CONNECTIONS });
  });
  const result = summary(answer.samples);
  const cpu = cpuPerOp(before, cpuByPart(processTree()), result.requests).filter((c) => c.part !== 'load generator');
  cpu.push({ part: 'load generator', ms: answer.cpuMs / result.requests });
  return { ...result, cpu };
}

// Warm-up (the JIT, the pools, the prepared statements, the caches), untimed.
for (const route of [EMPTY, ...CALLS]) await load(route, WARMUP);

type Row = { run: number; route: Route; result: Awaited<ReturnType<typeof load>>; empty: number };
const rows: Row[] = [];
for (let run = 1; run <= 2; run++) {
  const empty = await load(EMPTY, SECONDS);
  rows.push({ run, route: EMPTY, result: empty, empty: empty.throughput });
  for (const route of CALLS) rows.push({ run, route, result: await load(route, SECONDS), empty: empty.throughput });
}
loader.disconnect();
await system.stop();

const ok = (r: LoadResult) => Object.entries(r.statuses).every(([status]) => status.startsWith('2'));
const lines = [
  '| run | route | req/s | p50 ms | p99 ms | non-2xx | ratio to empty route | target ≥ 0.5 |',
  '|---:|---|---:|---:|---:|---:|---:|---|',
];
for (const { run, route, result, empty } of rows) {
  const bad = Object.entries(result.statuses)
    .filter(([status]) => !status.startsWith('2'))
    .reduce((n, [, count]) => n + count, 0);
  const ratio = result.throughput / empty;
  const verdict = route === EMPTY ? '' : ratio >= TARGET && ok(result) ? 'met' : 'MISSED';
  lines.push(
    `| ${run} | ${route.name} | ${result.throughput.toFixed(0)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ${bad} | ${route === EMPTY ? '1' : ratio.toFixed(2)} | ${verdict} |`,
  );
}
const verdicts = CALLS.map((route) => {
  const mine = rows.filter((r) => r.route === route);
  const met = mine.filter((r) => r.result.throughput / r.empty >= TARGET && ok(r.result)).length;
  return `- ${route.name}: ${met === 2 ? 'met' : 'MISSED'} (${met} of 2 runs at ≥ ${TARGET}× the empty route, all 2xx).`;
});
const cpuLines = [
  'CPU milliseconds per request at saturation, by part of the system (from /proc, counting only the processes this bench started; "load generator" is the separate load process):',
  ...rows.map(
    ({ run, route, result }) =>
      `- run ${run}, ${route.name}: ${result.cpu.map((c) => `${c.part} ${c.ms.toFixed(2)}`).join(', ')}`,
  ),
];

const HISTORY = `How the target was reached (2026-12-01). Before, every call paid three Prisma interactive
transactions: the key's lookup (BEGIN, set_config, select, update of last_used_at, COMMIT), the rate
limit (BEGIN, set_config, app_rate_take, COMMIT) and the operation's own (BEGIN, set_config, statement,
COMMIT) — about 13 round trips and Prisma's per-query work, 122–156 req/s on the key POST from outside.
Now (migration 20261202030000_api_hot_path):
1. The key's identity (hash → id, tenant, name; SQL \`app_api_key_by_hash\`, the one place it is resolved)
   is cached per process (LRU of 1,000; lib/auth/api-key-cache.ts). Revocation is checked inside the
   operation's own transaction (\`app_api_key_live\`), so a key revoked anywhere is refused by the next
   request in every process, at no extra round trip.
2. The limit is leased from the PostgreSQL token bucket (\`app_rate_lease\`, one statement on the service
   pool, up to 64 tokens and a quarter of the capacity at a time, spent locally for at most 1 s;
   lib/ratelimit/token-leases.ts): every token granted anywhere was taken from the bucket.
3. \`last_used_at\` is written at most once a minute per key and process, off the request's path.
4. The operation runs as one simple query of several statements (\`scopedQuery\` in lib/db/tx.ts):
   PostgreSQL runs them as one implicit transaction — role and settings (SET LOCAL), the key check, the
   statement(s) — in one round trip, values written as typed literals. GET /rooms and GET /reservations
   are plain SQL instead of Prisma (same JSON; the route tests hold it). The key POST's callers on one
   check-in share one in-flight call per process (as before), so it costs PostgreSQL almost nothing.
5. The three hot addresses skip Next.js's proxy (middleware), as /api/ping does: a profile with
   \`BENCH_ONLY=rooms\` showed it was most of the 1.5 ms of web CPU an API call spent over the empty route
   (loading and running it, a NextRequest per request). Those routes answer other methods with the JSON
   405 themselves (proxy.test.ts checks which addresses it sees). This took the key POST from 0.46× to
   0.87× and GET /rooms from 0.55× to 0.74–0.83×.
6. (Decision 017.) GET /reservations (30 reservations, about 12 KB of JSON per answer) was still at
   0.42–0.43×: its web process was the bottleneck (2.4 ms of CPU a request against 1.2 for the empty
   route), and a profile of it (\`BENCH_ONLY=reservations WEB_NODE_ARGS="--cpu-prof --cpu-prof-dir=…"\`)
   had no hot spot of ours: Next.js's request pipeline (routing, web streams into Node streams, its
   Request, tracing, abort signals, async hooks) took most of it. The web process is now
   scripts/web-server.mjs, Next.js behind a node:http server whose fast lane (lib/api/fast-lane.mjs)
   hands the three hot addresses and the webhooks to their route handlers, as Next.js built them,
   without that pipeline (since decision 023, every address of the one router — below /api/v1,
   /api/webhooks and /api/guest — through the router's documented fetch, with no Next.js internals).
   The same handlers answer, so the same JSON, request ids and refusals
   (e2e/fast-lane.spec.ts). The empty route stays with Next.js: it is the baseline of every figure here,
   the framework's cost of answering at all. Against it, over this session's runs (six to eight of each call; two
   of GET /reservations under a CPU profiler), GET /reservations went from 0.42× to 0.48–0.87× (one run of eight
   under ½, at a load average of 2.5), GET /rooms to 1.5–2.9× and the key POST to 4.4–7.3×.
   The baseline is not slower for it: in an A/B minutes apart (\`BENCH_ONLY=rooms\`, the web process started
   as \`next start\`, then as scripts/web-server.mjs), the empty route served 695–714 and 641–779 req/s
   (this machine's noise), GET /rooms 534–744 and 1,474–1,597.
7. (Decision 023, 2026-12-03.) The API is one Hono router (lib/api/router.ts), mounted in one Next.js
   catch-all and called by the fast lane through its fetch. The table above was measured with it (the load
   average in its header says how much else the machine ran); the ratios to the same run's empty route
   are the comparison with earlier days' figures.`;

const body = `
Command: \`npm run bench:api\` (${SECONDS} s per measurement after ${WARMUP} s of warm-up per route, two runs; one web process in production mode and one worker, embedded PostgreSQL, all on this machine; the load comes from a separate Node process with undici and ${CONNECTIONS} connections). Data: one tenant of ${ROOMS} rooms with a stay in each (GET /reservations answers all ${ROOMS}), one of them checked in (the key POST answers its live key). The bench's key has a limit high enough that nothing is refused (\`API_RATE_BURST\`, \`API_RATE_PER_SECOND\`); the whole rate-limit path still runs.
Machine: ${machine()}. Run: ${new Date().toISOString()}; load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (above ~2 on this machine, other work shared the cores and the figures are noisy).

${lines.join('\n')}

${verdicts.join('\n')}

${cpuLines.join('\n')}

${HISTORY}
`;
writeSection('API call throughput', body);
process.stdout.write(body);
process.exit(0);
