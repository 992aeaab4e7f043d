// `npm run bench:keys`: key issuance throughput and latency, against a plain single-row insert
// transaction measured in the same run through the same database client. Writes docs/PERFORMANCE.md.
import pg from 'pg';
import { createDatabaseIfMissing, openDatabase, prepareDatabase, withDatabase } from '../../tooling/database/database';
import { machine, measure, table, writeSection, type Measurement } from './harness';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROOMS = 400;
const CHECK_INS = 24_000;
const TARGET_RATIO = 0.5;

process.env.UNLOCKOS_DATA_DIR ??= '.data/bench';
const database = await openDatabase();
const benchAdminUrl = withDatabase(database.adminUrl, 'unlockos_bench');
const maintenance = new pg.Client({ connectionString: withDatabase(database.adminUrl, 'postgres') });
await maintenance.connect();
await maintenance.query('drop database if exists unlockos_bench with (force)');
await maintenance.end();
await createDatabaseIfMissing(withDatabase(database.adminUrl, 'postgres'), 'unlockos_bench');
await prepareDatabase({ adminUrl: benchAdminUrl });
process.env.APP_DATABASE_URL = database.appUrl.replace(/\/unlockos(\?|$)/, '/unlockos_bench$1');
process.env.DB_POOL_MAX = '32';

// Arrange: a tenant with many rooms and many check-ins without keys (as the owner, in bulk).
const admin = new pg.Client({ connectionString: benchAdminUrl });
await admin.connect();
const tenantId = (await admin.query(`insert into tenants (name) values ('Bench') returning id`)).rows[0].id as string;
const facilityId = (
  await admin.query(`insert into facilities (tenant_id, name) values ($1, 'Bench') returning id`, [tenantId])
).rows[0].id as string;
await admin.query(
  `insert into rooms (tenant_id, facility_id, label) select $1, $2, 'R' || g from generate_series(1, ${ROOMS}) g`,
  [tenantId, facilityId],
);
await admin.query(
  `insert into reservations (tenant_id, room_id, starts_at, ends_at, status, source, room_label_snapshot, guest_ref_snapshot)
   select $1, r.id, now() - interval '1 hour' + (g * interval '1 day'), now() + interval '23 hours' + (g * interval '1 day'), 'checked_in', 'api', r.label, 'bench'
   from (select id, label, row_number() over () as n from rooms where tenant_id = $1) r, generate_series(0, ${CHECK_INS / ROOMS - 1}) g`,
  [tenantId],
);
await admin.query(
  `insert into check_ins (tenant_id, reservation_id) select tenant_id, id from reservations where tenant_id = $1`,
  [tenantId],
);
const checkIns = (await admin.query(`select id from check_ins where tenant_id = $1 order by id`, [tenantId])).rows.map(
  (r) => r.id as string,
);
await admin.query(
  'create table bench_baseline (id bigserial primary key, tenant_id uuid not null, note text not null, created_at timestamptz not null default now())',
);
await admin.query(
  'grant insert, select on bench_baseline to app_service; grant usage on sequence bench_baseline_id_seq to app_service',
);

const { asService } = await import('../../lib/db/tx');
const { issueCheckInKey } = await import('../../lib/stays/issue-check-in-key');
const { disconnectDb } = await import('../../lib/db/client');
const actor = { type: 'system' as const, id: null, label: 'bench' };

// Warm up the pool and the plans.
for (let i = 0; i < 50; i++)
  await asService(
    (tx) => tx.$executeRaw`insert into bench_baseline (tenant_id, note) values (${tenantId}::uuid, 'warm')`,
  );

const allRuns: Measurement[][] = [];
let cursor = 0;
for (const run of [1, 2]) {
  const results: Measurement[] = [];
  allRuns.push(results);
  for (const concurrency of [1, 8, 32]) {
    results.push(
      await measure('baseline: single-row insert transaction', concurrency, SECONDS, () =>
        asService((tx) => tx.$executeRaw`insert into bench_baseline (tenant_id, note) values (${tenantId}::uuid, 'x')`),
      ),
    );
    const start = cursor;
    results.push(
      await measure(
        'issue key, distinct check-ins',
        concurrency,
        SECONDS,
        (i) => {
          cursor = Math.max(cursor, start + i + 1);
          return issueCheckInKey({ tenantId, checkInId: checkIns[start + i]!, actor });
        },
        checkIns.length - start,
      ),
    );
    const hot = checkIns[checkIns.length - 1 - concurrency]!;
    results.push(
      await measure('issue key, one hot check-in', concurrency, SECONDS, () =>
        issueCheckInKey({ tenantId, checkInId: hot, actor }),
      ),
    );
    // The same without the in-process single-flight: every caller goes through the SQL function.
    results.push(
      await measure('issue key, one hot check-in, SQL only', concurrency, SECONDS, () =>
        asService(
          { tenantId },
          (tx) =>
            tx.$queryRaw`select id from issue_checkin_key(${tenantId}::uuid, ${hot}::uuid, 'system', null, 'bench')`,
        ),
      ),
    );
  }
  void run;
}

const live = (
  await admin.query(
    `select count(*)::int as n, count(distinct check_in_id)::int as d from access_keys where tenant_id = $1 and status = 'active'`,
    [tenantId],
  )
).rows[0];
await admin.end();
await disconnectDb();
await database.close();

const ratio = (results: Measurement[], name: string, c: number) => {
  const base = results.find((r) => r.name.startsWith('baseline') && r.concurrency === c)!;
  const value = results.find((r) => r.name === name && r.concurrency === c)!;
  return value.throughput / base.throughput;
};
const hot32 = allRuns.map((results) => ratio(results, 'issue key, one hot check-in', 32));
const body = `
Command: \`npm run bench:keys\` (${SECONDS} s per measurement, every figure measured twice; ${ROOMS} rooms, ${checkIns.length} check-ins prepared; all through the project's Prisma client in one process).
Machine: ${machine()}. Run: ${new Date().toISOString()}.

${allRuns.map((results, i) => `Run ${i + 1}:\n\n${table(results)}\n\nRatios to the baseline at the same concurrency:\n${[1, 8, 32].map((c) => `- ${c} clients: distinct ${ratio(results, 'issue key, distinct check-ins', c).toFixed(2)}×, hot ${ratio(results, 'issue key, one hot check-in', c).toFixed(2)}×, hot without single-flight ${ratio(results, 'issue key, one hot check-in, SQL only', c).toFixed(2)}×`).join('\n')}`).join('\n\n')}

Target (hot check-in at 32 clients ≥ ${TARGET_RATIO}× the baseline): ${hot32.every((r) => r < TARGET_RATIO) ? 'MISSED in both runs' : 'met'} (${hot32.map((r) => `${r.toFixed(2)}×`).join(', ')}).
Check after the runs: ${live.n} active keys for ${live.d} check-ins (one per check-in).
`;
writeSection('Key issuance', body);
process.stdout.write(body);
process.exit(0);
