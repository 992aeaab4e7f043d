// The bulk history behind `npm run bench:history`, and the EXPLAIN summaries it prints.
import pg from 'pg';

export type LoadReport = { seconds: number; steps: { name: string; seconds: number }[]; reused?: boolean };

const OTHER_TENANTS = 160;
const OTHER_ROOMS = 30;
/** Shares of the history that are the measured tenant's. */
const TENANT_RESERVATIONS = 0.175;
const TENANT_AUDIT = 0.3;

/**
 * One row per audit action a stay leaves behind, in the order a stay writes them: the measured
 * tenant's stays write all of them, the others' the first eight or nine. `at` picks the moment:
 * the booking, the check-in or the stay's end.
 */
const ACTIONS = `(values
  (1, 'reservation.created', 'reservation', 'provider', 'Calendly', null, 'booked'),
  (2, 'key.pre_issued', 'pre_key', 'system', 'booking', null, 'booked'),
  (3, 'reservation.paid', 'reservation', 'provider', 'Stripe', null, 'booked'),
  (4, 'checkin.completed', 'reservation', 'user', 'Front desk', null, 'arrived'),
  (5, 'key.revoked', 'pre_key', 'user', 'Front desk', 'superseded_by_checkin', 'arrived'),
  (6, 'key.issued', 'key', 'user', 'Front desk', null, 'arrived'),
  (7, 'key.door_set', 'key', 'system', 'worker', null, 'arrived'),
  (8, 'key.expired', 'key', 'system', 'expiry', 'stay_ended', 'left'),
  (9, 'key.door_removed', 'key', 'system', 'worker', null, 'left'),
  (10, 'checkout.completed', 'reservation', 'user', 'Front desk', null, 'left'),
  (11, 'key.pin_revealed', 'key', 'user', 'Front desk', null, 'arrived'),
  (12, 'reservation.changed', 'reservation', 'api_key', 'PMS', null, 'booked'),
  (13, 'key.window_changed', 'key', 'api_key', 'PMS', null, 'arrived'),
  (14, 'guest_link.rotated', 'reservation', 'user', 'Front desk', null, 'booked'),
  (15, 'key.door_failed', 'key', 'system', 'worker', null, 'arrived'),
  (16, 'locks.synced', 'lock', 'system', 'worker', null, 'left'),
  (17, 'reservation.moved', 'reservation', 'user', 'Front desk', null, 'arrived'),
  (18, 'key.backup_issued', 'key', 'user', 'Front desk', null, 'arrived'),
  (19, 'lock.resynced', 'lock', 'system', 'worker', null, 'left'),
  (20, 'message.resent', 'reservation', 'user', 'Front desk', null, 'booked')
) as a(e, action, subject, actor_type, actor_label, reason, at)`;

/**
 * Loads years of history with set-based SQL as the owner: 160 other tenants of 30 rooms and ten
 * years of nightly stays in the measured tenant's rooms (ended three days ago), each stay with its
 * guest, check-in, ended key, door row, and its audit rows; the measured tenant's stays also with
 * their guest message. Triggers (append-only guards, message and door triggers, foreign keys) are off
 * for the session, as a bulk load may have them; constraints and indexes are not. VACUUM (ANALYZE) at the end.
 */
export async function loadHistory(
  adminUrl: string,
  options: {
    tenantId: string;
    auditRows: number;
    reservations: number;
    log: (line: string) => void;
    /** Only the measured tenant's last `days` days (17 audit rows a stay), no other tenant: the almost empty database. */
    onlyTenantDays?: number;
  },
): Promise<LoadReport> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const steps: LoadReport['steps'] = [];
  const started = performance.now();
  const second = new pg.Client({ connectionString: adminUrl });
  await second.connect();
  const queue: { name: string; sql: string; params: unknown[] }[] = [];
  const later = (name: string, sql: string, params: unknown[] = []) => void queue.push({ name, sql, params });
  const step = async (name: string, sql: string, params: unknown[] = [], session = client) => {
    const t0 = performance.now();
    const result = await session.query(sql, params);
    const seconds = (performance.now() - t0) / 1000;
    steps.push({ name, seconds });
    options.log(
      `${name}: ${seconds.toFixed(1)} s${result.rowCount ? ` (${result.rowCount.toLocaleString('en')} rows)` : ''}`,
    );
  };
  const rooms = (
    await client.query<{ n: number }>('select count(*)::int as n from rooms where tenant_id = $1', [options.tenantId])
  ).rows[0]!.n;
  const only = options.onlyTenantDays;
  const otherTenants = only ? 0 : OTHER_TENANTS;
  const tenantDays = only ?? Math.max(1, Math.round((options.reservations * TENANT_RESERVATIONS) / rooms));
  const otherPerRoom = Math.max(
    1,
    Math.floor((options.reservations - tenantDays * rooms) / (OTHER_TENANTS * OTHER_ROOMS)),
  );
  const tenantStays = tenantDays * rooms;
  const otherStays = otherPerRoom * otherTenants * OTHER_ROOMS;
  const tenantEvents = only ? 17 : (options.auditRows * TENANT_AUDIT) / tenantStays;
  const otherEvents = only ? 0 : (options.auditRows * (1 - TENANT_AUDIT)) / otherStays;
  options.log(
    `plan: ${tenantStays} stays of the measured tenant (${tenantDays} days × ${rooms} rooms, ${tenantEvents.toFixed(2)} audit rows each), ${otherStays} of ${otherTenants} others (${otherEvents.toFixed(2)} each)`,
  );
  try {
    for (const session of [client, second])
      await session.query(
        `set session_replication_role = replica; set synchronous_commit = off; set maintenance_work_mem = '512MB'; set work_mem = '256MB'`,
      );
    await step(
      'tenants, facilities, rooms, doors',
      `with t as (insert into tenants (name) select 'History ' || g from generate_series(1, ${otherTenants}) g returning id),
            f as (insert into facilities (tenant_id, name, time_zone)
                  select id, 'Main', (array['Asia/Tokyo', 'Europe/London', 'America/New_York', 'UTC'])[1 + (row_number() over ())::int % 4] from t
                  returning tenant_id, id),
            r as (insert into rooms (tenant_id, facility_id, label)
                  select f.tenant_id, f.id, (100 + g)::text from f, generate_series(1, ${OTHER_ROOMS}) g returning tenant_id, id, label),
            l as (insert into locks (tenant_id, provider, device_id, name)
                  select tenant_id, 'simulator', 'history-' || id, 'Room ' || label from r returning tenant_id, id, device_id)
       insert into room_locks (tenant_id, room_id, lock_id) select l.tenant_id, substr(l.device_id, 9)::uuid, l.id from l`,
    );
    // One row per stay, in time order (as a live database writes them), with the ids of what it leaves behind.
    await step(
      'stays (plan table)',
      `create unlogged table bench_stays as
       select *, gen_random_uuid() as id, gen_random_uuid() as guest_id, gen_random_uuid() as check_in_id,
              gen_random_uuid() as key_id, gen_random_uuid() as pre_key_id
         from (
           select r.tenant_id, r.id as room_id, rl.lock_id, r.label, k,
                  date_trunc('day', now()) - make_interval(days => 3 + k) + interval '6 hours' as starts_at,
                  date_trunc('day', now()) - make_interval(days => 3 + k) + interval '25 hours' as ends_at,
                  floor(${tenantEvents})::int + (random() < ${tenantEvents % 1})::int as n_events
             from rooms r join room_locks rl on rl.tenant_id = r.tenant_id and rl.room_id = r.id,
                  generate_series(1, ${tenantDays}) k
            where r.tenant_id = $1
           union all
           select r.tenant_id, r.id, rl.lock_id, r.label, k,
                  date_trunc('day', now()) - make_interval(days => 3 + 4 * k) + make_interval(hours => 6 + (k % 5)),
                  date_trunc('day', now()) - make_interval(days => 3 + 4 * k) + make_interval(hours => 25 + (k % 5) + 24 * (k % 3)),
                  floor(${otherEvents})::int + (random() < ${otherEvents % 1})::int
             from rooms r join room_locks rl on rl.tenant_id = r.tenant_id and rl.room_id = r.id,
                  generate_series(1, ${otherPerRoom}) k
            where r.tenant_id <> $1
         ) s
        order by starts_at`,
      [options.tenantId],
    );
    later(
      'guests',
      `insert into guests (tenant_id, id, name, email, created_at)
       select tenant_id, guest_id, 'Guest ' || left(guest_id::text, 8), left(guest_id::text, 8) || '@example.com', starts_at - interval '10 days'
         from bench_stays`,
    );
    later(
      'reservations',
      `insert into reservations (tenant_id, id, room_id, guest_id, starts_at, ends_at, status, source, room_label_snapshot,
                                 guest_ref_snapshot, plan_name_snapshot, paid_at, cancelled_at, cancel_reason, created_at)
       select tenant_id, id, room_id, guest_id, starts_at, ends_at,
              case when k % 20 = 7 then 'cancelled' else 'checked_out' end::reservation_status,
              (array['api', 'desk', 'calendly', 'cal'])[1 + k % 4]::reservation_source, label,
              'guest_' || left(md5(guest_id::text), 12), 'Standard', starts_at - interval '10 days',
              case when k % 20 = 7 then starts_at - interval '2 days' end, case when k % 20 = 7 then 'guest cancelled' end,
              starts_at - interval '10 days'
         from bench_stays`,
    );
    later(
      'check-ins',
      `insert into check_ins (tenant_id, id, reservation_id, created_at, checked_out_at)
       select tenant_id, check_in_id, id, starts_at + interval '1 hour', ends_at - interval '30 minutes'
         from bench_stays where k % 20 <> 7`,
    );
    later(
      'keys (ended)',
      `insert into access_keys (tenant_id, id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at,
                                vendor_sync, revoked_reason, revoked_at, created_at, updated_at)
       select tenant_id, key_id, id, check_in_id, room_id,
              case when k % 12 = 5 then 'revoked' else 'expired' end::key_status,
              lpad((abs(hashtext(key_id::text)) % 1000000)::text, 6, '0'), starts_at + interval '1 hour', ends_at, 'synced',
              case when k % 12 = 5 then 'checked_out' end, case when k % 12 = 5 then ends_at - interval '30 minutes' end,
              starts_at + interval '1 hour', ends_at
         from bench_stays where k % 20 <> 7`,
    );
    later(
      'door rows (removed)',
      `insert into key_lock_codes (tenant_id, key_id, lock_id, state, code_id, attempts, set_at, removed_at, created_at, updated_at)
       select tenant_id, key_id, lock_id, 'removed', 'code-' || left(key_id::text, 8), 1, starts_at + interval '1 hour',
              ends_at, starts_at + interval '1 hour', ends_at
         from bench_stays where k % 20 <> 7`,
    );
    later(
      "guest messages (the measured tenant's)",
      `insert into messages (tenant_id, reservation_id, kind, occasion, to_address, status, attempts, sent_at, created_at, updated_at)
       select tenant_id, id, 'key_link', 'booking', left(guest_id::text, 8) || '@example.com', 'sent', 1,
              starts_at - interval '10 days', starts_at - interval '10 days', starts_at - interval '10 days'
         from bench_stays where tenant_id = $1`,
      [options.tenantId],
    );
    for (const half of [0, 1])
      later(
        `audit rows (half ${half + 1})`,
        `insert into audit_events (tenant_id, occurred_at, actor_type, actor_id, actor_label, action, subject_type, subject_id,
                                 room_id, reason, metadata)
       select s.tenant_id,
              case a.at when 'booked' then s.starts_at - interval '10 days' when 'arrived' then s.starts_at + interval '1 hour'
                        else s.ends_at end + make_interval(secs => a.e),
              a.actor_type::actor_type, null, a.actor_label,
              case when a.e = 14 and s.k % 500 = 3 then 'guest.deleted' else a.action end,
              case when a.e = 14 and s.k % 500 = 3 then 'guest'
                   when a.subject in ('key', 'pre_key') then 'access_key' else a.subject end,
              case when a.e = 14 and s.k % 500 = 3 then s.guest_id
                   when a.subject = 'reservation' then s.id when a.subject = 'key' then s.key_id
                   when a.subject = 'pre_key' then s.pre_key_id else s.lock_id end,
              s.room_id, a.reason,
              case when a.subject = 'reservation' then '{}'::jsonb
                   when a.subject = 'lock' then jsonb_build_object('lockId', s.lock_id)
                   else jsonb_build_object('reservationId', s.id) end
         from bench_stays s join ${ACTIONS} on a.e <= s.n_events
        where s.k % 2 = ${half}`,
      );
    // Every insert above reads only the plan table (foreign keys are triggers, off here), so two sessions
    // share them, the two halves of the audit log first: the machine has two cores.
    queue.sort((a, b) => Number(b.name.startsWith('audit')) - Number(a.name.startsWith('audit')));
    await Promise.all(
      [client, second].map(async (session) => {
        for (let next = queue.shift(); next; next = queue.shift())
          await step(next.name, next.sql, next.params, session);
      }),
    );
    await step('drop the plan table', 'drop table bench_stays');
    await client.query('reset session_replication_role');
    // VACUUM too, as autovacuum would have in a live database (an insert-driven vacuum): without it the
    // partial indexes, built while the tables were empty, keep reltuples 0 (ANALYZE leaves them), and the
    // planner priced the expiry sweep's list of tenants with keys due as a scan of all keys (250 ms).
    await step('VACUUM (ANALYZE)', 'vacuum (analyze)');
  } finally {
    await Promise.all([client.end(), second.end()]);
  }
  return { seconds: (performance.now() - started) / 1000, steps };
}

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Index Cond'?: string;
  Plans?: PlanNode[];
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
};

function scans(node: PlanNode, out: string[]): void {
  if (node['Relation Name'] || node['Index Name']) {
    const rows = Math.round((node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1));
    const removed = (node['Rows Removed by Filter'] ?? 0) * (node['Actual Loops'] ?? 1);
    out.push(
      `${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}: ${rows} rows${removed ? `, ${Math.round(removed)} removed by filter` : ''}`,
    );
  }
  for (const child of node.Plans ?? []) scans(child, out);
}

/** The table a statement reads first, for a short label. */
function label(text: string): string {
  const from = /from\s+(?:"public"\.)?"?(\w+)"?/i.exec(text);
  const call = /select\s+(?:id\s+from\s+)?(\w+)\(/i.exec(text);
  return from?.[1] ?? call?.[1] ?? text.slice(0, 40);
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement as `role` with the tenant settings (so row-level
 * security is in the plan), rolled back; one line per statement: the scans, rows, buffers and time.
 */
export async function explainSummary(
  appUrl: string,
  role: string,
  tenantId: string,
  statements: { text: string; values: unknown[] }[],
): Promise<string[]> {
  const client = new pg.Client({ connectionString: appUrl });
  await client.connect();
  const lines: string[] = [];
  try {
    for (const { text, values } of statements) {
      await client.query('begin');
      try {
        await client.query(`select set_config('role', $1, true), set_config('app.tenant_id', $2, true)`, [
          role,
          tenantId,
        ]);
        const result = await client.query(`explain (analyze, buffers, format json) ${text}`, values);
        const plan = (result.rows[0]['QUERY PLAN'] as { Plan: PlanNode; 'Execution Time': number }[])[0]!;
        const found: string[] = [];
        scans(plan.Plan, found);
        lines.push(
          `\`${label(text)}\`: ${found.join('; ') || plan.Plan['Node Type']} — ${plan.Plan['Shared Hit Blocks'] ?? 0} buffers hit, ${plan.Plan['Shared Read Blocks'] ?? 0} read, ${plan['Execution Time'].toFixed(2)} ms`,
        );
      } catch (error) {
        lines.push(`\`${label(text)}\`: could not explain (${(error as Error).message})`);
      } finally {
        await client.query('rollback');
      }
    }
  } finally {
    await client.end();
  }
  return lines;
}
