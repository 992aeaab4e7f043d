// `npm run bench:groups`: group booking (3 rooms, all or nothing) for distinct rooms and for one
// contended set of rooms, at 1, 8 and 32 clients, against a single-row insert transaction measured
// in the same run through the same client. Every figure twice; writes docs/PERFORMANCE.md.
import pg from 'pg';
import { createDatabaseIfMissing, openDatabase, prepareDatabase, withDatabase } from '../../tooling/database/database';
import { machine, measure, table, writeSection, type Measurement } from './harness';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROOMS = 600;

process.env.UNLOCKOS_DATA_DIR ??= '.data/bench';
const database = await openDatabase();
const benchAdminUrl = withDatabase(database.adminUrl, 'unlockos_bench_groups');
const maintenance = new pg.Client({ connectionString: withDatabase(database.adminUrl, 'postgres') });
await maintenance.connect();
await maintenance.query('drop database if exists unlockos_bench_groups with (force)');
await maintenance.end();
await createDatabaseIfMissing(withDatabase(database.adminUrl, 'postgres'), 'unlockos_bench_groups');
await prepareDatabase({ adminUrl: benchAdminUrl });
process.env.APP_DATABASE_URL = database.appUrl.replace(/\/unlockos(\?|$)/, '/unlockos_bench_groups$1');
process.env.DB_POOL_MAX = '32';
process.env.NEXTAUTH_SECRET ??= 'bench-secret';

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
const rooms = (await admin.query(`select id from rooms where tenant_id = $1 order by label`, [tenantId])).rows.map(
  (r) => r.id as string,
);
await admin.query(
  'create table bench_baseline (id bigserial primary key, tenant_id uuid not null, note text not null)',
);
await admin.query(
  'grant insert on bench_baseline to app_service; grant usage on sequence bench_baseline_id_seq to app_service',
);

const { asService } = await import('../../lib/db/tx');
const { createBookingGroup } = await import('../../lib/bookings/create-booking-group');
const { disconnectDb } = await import('../../lib/db/client');
const actor = { type: 'system' as const, id: null, label: 'bench' };
const DAY = 86_400_000;
const epoch = Date.UTC(2030, 0, 1);
let slot = 0;

const runs: Measurement[][] = [];
let conflicts = 0;
for (const run of [1, 2]) {
  const results: Measurement[] = [];
  for (const concurrency of [1, 8, 32]) {
    results.push(
      await measure('baseline: single-row insert transaction', concurrency, SECONDS, () =>
        asService((tx) => tx.$executeRaw`insert into bench_baseline (tenant_id, note) values (${tenantId}::uuid, 'x')`),
      ),
    );
    // Distinct: each group takes 3 rooms on a day no one else books.
    results.push(
      await measure('book 3-room group, distinct rooms', concurrency, SECONDS, () => {
        const n = slot++;
        const base = (n * 3) % ROOMS;
        const day = Math.floor((n * 3) / ROOMS);
        const startsAt = new Date(epoch + day * DAY);
        return createBookingGroup({
          tenantId,
          actor,
          source: 'api',
          guest: { name: 'Bench' },
          preIssueKeys: false,
          reservations: [0, 1, 2].map((k) => ({
            roomId: rooms[base + k]!,
            startsAt,
            endsAt: new Date(startsAt.getTime() + DAY),
          })),
        });
      }),
    );
    // Contended: everyone asks for the same 3 rooms on the same night; one wins, the rest are told which rooms failed.
    const contendedDay = new Date(epoch + (1000 + run * 10 + concurrency) * DAY);
    results.push(
      await measure('book 3-room group, one contended set', concurrency, SECONDS, () =>
        createBookingGroup({
          tenantId,
          actor,
          source: 'api',
          guest: { name: 'Contender' },
          preIssueKeys: false,
          reservations: [0, 1, 2].map((k) => ({
            roomId: rooms[k]!,
            startsAt: contendedDay,
            endsAt: new Date(contendedDay.getTime() + DAY),
          })),
        }).catch((error: { code?: string }) => {
          if (error.code !== 'room_unavailable') throw error;
          conflicts += 1;
        }),
      ),
    );
  }
  runs.push(results);
}

const overlaps = (
  await admin.query(
    `select count(*)::int as n from reservations a join reservations b on a.room_id = b.room_id and a.id < b.id
   and a.status <> 'cancelled' and b.status <> 'cancelled' and tstzrange(a.starts_at, a.ends_at) && tstzrange(b.starts_at, b.ends_at)`,
  )
).rows[0].n;
await admin.end();
await disconnectDb();
await database.close();

const body = `
Command: \`npm run bench:groups\` (${SECONDS} s per measurement, every figure measured twice; ${ROOMS} rooms; one process through the project's Prisma client).
Machine: ${machine()}. Run: ${new Date().toISOString()}.

${runs.map((r, i) => `Run ${i + 1}:\n\n${table(r)}`).join('\n\n')}

Contended attempts refused with room_unavailable: ${conflicts}. Overlapping live reservations after the runs: ${overlaps} (must be 0).
`;
writeSection('Group booking', body);
process.stdout.write(body);
process.exit(0);
