import { runStatements, serviceStatement, sqlArray, sqlLiteral, statement } from '../db/tx';
import { logger } from '../log/logger';
import type { ProviderDoorRecord } from './provider';
import { lockProviderFor } from './tenant-provider';

/**
 * How far behind the last complete read every read reaches back (by the lock's clock): a gateway that uploads a
 * record later than this after it happened (offline for a day) loses it to the product. Re-reading a day of a door's
 * records costs one page a minute; each is stored once (decision 036).
 */
export const RECORDS_OVERLAP_MS = 24 * 3_600_000;
/** A lock whose provider keeps failing is read again after 2, 4, 8… minutes, at most this many. */
const MAX_BACKOFF_MINUTES = 30;

/** Providers whose records are read (TTLock's open platform, and the simulator that speaks it). */
const READ_PROVIDERS = ['ttlock', 'simulator'] as const;
/** A TTLock lock id (an Int): a released lock's device (`released:<id>`) is read no more. */
const TTLOCK_DEVICE = /^[1-9]\d{0,9}$/;

export type PollOutcome =
  { status: 'read'; records: number; stored: number } | { status: 'failed'; code: string } | { status: 'skipped' };

/** The most locks one statement picks for a tenant's read; a read job goes on with the next ones until none is due. */
export const LOCKS_PER_ROUND = 100;
/** Reads of one tenant's locks in flight at once (each an HTTP call to the provider). */
const READS_AT_ONCE = 4;
/** A tenant's read job stops picking more locks after this long: the next minute's job goes on with them. */
const ROUNDS_FOR_MS = 45_000;

const READ_CLAUSE = `l.provider = any ($1::lock_provider[]) and l.device_id ~ $2`;

/**
 * Each tenant with a TTLock (or simulator) lock due for a read gets one read job, in a queue of its own (one read of
 * a tenant's locks at a time, across workers; a job not started yet is not queued twice): the worker's
 * once-a-minute cron. One job a tenant, not one a lock: the queue's bookkeeping for a job costs more than reading a
 * quiet door, and a hotel's doors are read every minute (docs/PERFORMANCE.md, A synthetic day).
 */
export async function enqueueLockRecordPolls(): Promise<number> {
  const rows = await serviceStatement(
    statement<{ n: number }>(
      `select count(app_enqueue_job('poll_lock_records', jsonb_build_object('tenantId', t.tenant_id),
                                    'lock-records:' || t.tenant_id, 'lock-records:' || t.tenant_id, null, 3))::int as n
         from (select distinct l.tenant_id
                 from locks l
                 left join lock_record_cursors c on c.tenant_id = l.tenant_id and c.lock_id = l.id
                where ${READ_CLAUSE} and (c.next_poll_at is null or c.next_poll_at <= now())) t`,
    ),
    [READ_PROVIDERS, TTLOCK_DEVICE.source],
  );
  return rows[0]?.n ?? 0;
}

type LockRow = {
  lock_id: string;
  provider: (typeof READ_PROVIDERS)[number];
  device_id: string;
  created_at: Date;
  read_until: Date | null;
};

const LOCK_COLUMNS = `l.id as lock_id, l.provider::text as provider, l.device_id, l.created_at, c.read_until
  from locks l left join lock_record_cursors c on c.tenant_id = l.tenant_id and c.lock_id = l.id`;

/**
 * Reads one lock's records now, whether due or not (what a tenant's read job does for each of its locks):
 * `pollTenantLockRecords` for a lock alone.
 */
export async function pollLockRecords(input: { tenantId: string; lockId: string }): Promise<PollOutcome> {
  const { tenantId, lockId } = input;
  const [locks] = await runStatements({ role: 'app_service', tenantId }, [
    statement<LockRow>(
      `select ${LOCK_COLUMNS}
        where l.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and l.id = ${sqlLiteral(lockId, 'uuid')}`,
    ),
  ]);
  const lock = locks[0];
  if (!lock || !READ_PROVIDERS.includes(lock.provider) || !TTLOCK_DEVICE.test(lock.device_id))
    return { status: 'skipped' };
  return (await readAndStore(tenantId, [lock])).get(lockId) ?? { status: 'skipped' };
}

/**
 * Reads every due TTLock (and simulator) lock of a tenant, `LOCKS_PER_ROUND` at a time, the least recently read
 * first, until none read before this job began is due (or `ROUNDS_FOR_MS` has passed). Returns each lock's outcome.
 */
export async function pollTenantLockRecords(tenantId: string): Promise<Map<string, PollOutcome>> {
  const began = new Date();
  const outcomes = new Map<string, PollOutcome>();
  for (;;) {
    const [locks] = await runStatements({ role: 'app_service', tenantId }, [
      statement<LockRow>(
        `select ${LOCK_COLUMNS}
          where l.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
            and l.provider = any (${sqlArray(READ_PROVIDERS, 'lock_provider')})
            and l.device_id ~ ${sqlLiteral(TTLOCK_DEVICE.source, 'text')}
            and (c.next_poll_at is null or c.next_poll_at <= now())
            and (c.polled_at is null or c.polled_at < ${sqlLiteral(began, 'timestamptz')})
          order by c.polled_at nulls first, l.id
          limit ${LOCKS_PER_ROUND}`,
      ),
    ]);
    for (const [lockId, outcome] of await readAndStore(tenantId, locks)) outcomes.set(lockId, outcome);
    if (locks.length < LOCKS_PER_ROUND || Date.now() - began.getTime() > ROUNDS_FOR_MS) return outcomes;
  }
}

type Read = { lock: LockRow; records: ProviderDoorRecord[] } | { lock: LockRow; failed: string } | { lock: LockRow };

/**
 * Reads `locks`' records from their provider (a few at a time), then stores every lock's openings and lockings as
 * entries and moves each read lock's cursor to when this read began — in one transaction, so a cursor never passes
 * a record that is not stored. A read asks from the cursor minus `RECORDS_OVERLAP_MS` (records uploaded late are
 * found by a later read; those already stored are skipped, and each is stored once whatever runs twice), never from
 * before the tenant held the lock. A lock whose read failed stores nothing and keeps its cursor; it is read again
 * later, backing off.
 */
async function readAndStore(tenantId: string, locks: LockRow[]): Promise<Map<string, PollOutcome>> {
  const outcomes = new Map<string, PollOutcome>();
  if (locks.length === 0) return outcomes;
  const startedAt = new Date();
  const connections = new Map<string, ReturnType<typeof lockProviderFor>>();
  const readOne = async (lock: LockRow): Promise<Read> => {
    const from = new Date(
      Math.max(lock.created_at.getTime(), (lock.read_until ?? startedAt).getTime() - RECORDS_OVERLAP_MS),
    );
    let connection = connections.get(lock.provider);
    if (!connection) connections.set(lock.provider, (connection = lockProviderFor(tenantId, lock.provider)));
    const provider = await connection;
    if (!provider.ok) return { lock, failed: provider.code };
    if (!provider.data.listDoorRecords) return { lock };
    const read = await provider.data.listDoorRecords({
      deviceId: lock.device_id,
      from,
      correlationId: `lock-records:${lock.lock_id}`,
    });
    return read.ok ? { lock, records: read.data } : { lock, failed: read.code };
  };
  const reads: Read[] = [];
  for (let i = 0; i < locks.length; i += READS_AT_ONCE)
    reads.push(...(await Promise.all(locks.slice(i, i + READS_AT_ONCE).map(readOne))));

  const done = reads.filter((r): r is Extract<Read, { records: ProviderDoorRecord[] }> => 'records' in r);
  const failures = reads.filter((r): r is Extract<Read, { failed: string }> => 'failed' in r);
  for (const r of reads) if (!('records' in r) && !('failed' in r)) outcomes.set(r.lock.lock_id, { status: 'skipped' });
  const withEvents = done
    .map((r) => ({ lock: r.lock, records: r.records, events: r.records.filter((record) => record.kind !== null) }))
    .filter((r) => r.events.length > 0);
  const results = await runStatements({ role: 'app_service', tenantId }, [
    ...withEvents.map((r) =>
      storeRecordsStatement({ tenantId, provider: r.lock.provider, deviceId: r.lock.device_id, records: r.events }),
    ),
    statement(
      `insert into lock_record_cursors (tenant_id, lock_id, read_until, polled_at, next_poll_at, failures, last_error)
       select ${sqlLiteral(tenantId, 'uuid')}, id, ${sqlLiteral(startedAt, 'timestamptz')}, now(), null, 0, null
         from unnest(${sqlArray(
           done.map((r) => r.lock.lock_id),
           'uuid',
         )}) as id
       on conflict (tenant_id, lock_id) do update
         set read_until = greatest(lock_record_cursors.read_until, excluded.read_until), polled_at = now(),
             next_poll_at = null, failures = 0, last_error = null`,
    ),
    statement(
      `insert into lock_record_cursors (tenant_id, lock_id, polled_at, next_poll_at, failures, last_error)
       select ${sqlLiteral(tenantId, 'uuid')}, f.id, now(), now() + interval '1 minute', 1, left(f.code, 200)
         from unnest(${sqlArray(
           failures.map((r) => r.lock.lock_id),
           'uuid',
         )},
                     ${sqlArray(
                       failures.map((r) => r.failed),
                       'text',
                     )}) as f(id, code)
       on conflict (tenant_id, lock_id) do update
         set polled_at = now(), failures = lock_record_cursors.failures + 1, last_error = excluded.last_error,
             next_poll_at = now() + make_interval(
               mins => least(${MAX_BACKOFF_MINUTES}, power(2, least(lock_record_cursors.failures + 1, 10)))::int)`,
    ),
  ]);
  withEvents.forEach((r, i) => {
    const fresh = (results[i] as { duplicate: boolean }[]).filter((row) => !row.duplicate).length;
    if (fresh > 0) logger.info({ tenantId, lockId: r.lock.lock_id, stored: fresh }, 'lock records stored');
    outcomes.set(r.lock.lock_id, { status: 'read', records: r.records.length, stored: fresh });
  });
  for (const r of done)
    if (!outcomes.has(r.lock.lock_id))
      outcomes.set(r.lock.lock_id, { status: 'read', records: r.records.length, stored: 0 });
  for (const r of failures) {
    logger.warn({ tenantId, lockId: r.lock.lock_id, code: r.failed }, 'lock records could not be read');
    outcomes.set(r.lock.lock_id, { status: 'failed', code: r.failed });
  }
  return outcomes;
}

/**
 * The records not stored yet, each through `app_record_door_entry` in the order they happened (the PIN typed names
 * the key there and goes nowhere else).
 */
function storeRecordsStatement(input: {
  tenantId: string;
  provider: string;
  deviceId: string;
  records: ProviderDoorRecord[];
}) {
  const tenant = sqlLiteral(input.tenantId, 'uuid');
  const provider = sqlLiteral(input.provider, 'lock_provider');
  if (input.records.length === 0) return statement<{ entry_id: string; duplicate: boolean }>(`select null limit 0`);
  const json = JSON.stringify(
    input.records.map((r) => ({
      event_id: r.eventId,
      kind: r.kind,
      method: r.method,
      occurred_at: r.occurredAt.toISOString(),
      pin: r.pin,
      remote: r.remote,
    })),
  );
  return statement<{ entry_id: string; duplicate: boolean }>(
    `with fresh as materialized (
       select r.* from jsonb_to_recordset(${sqlLiteral(json, 'jsonb')})
                    as r(event_id text, kind text, method text, occurred_at timestamptz, pin text, remote boolean)
        where not exists (select 1 from door_entries e
                           where e.tenant_id = ${tenant} and e.provider = ${provider}
                             and e.provider_event_id = r.event_id)
        order by r.occurred_at, r.event_id)
     select x.entry_id, x.duplicate
       from fresh r
      cross join lateral app_record_door_entry(${tenant}, ${provider}, r.event_id, ${sqlLiteral(input.deviceId, 'text')},
                                               null, r.pin, r.kind, r.method, r.occurred_at, null, r.remote, null) x`,
  );
}
