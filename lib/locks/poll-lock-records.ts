import { runStatements, serviceStatement, sqlLiteral, statement } from '../db/tx';
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

/**
 * Each TTLock (and simulator) lock of every tenant due for a read gets its read job, in a queue of its own (one read
 * of a lock at a time, across workers; a read not started yet is not queued twice): the worker's once-a-minute cron.
 */
export async function enqueueLockRecordPolls(): Promise<number> {
  const rows = await serviceStatement(
    statement<{ n: number }>(
      `select count(app_enqueue_job('poll_lock_records', jsonb_build_object('tenantId', l.tenant_id, 'lockId', l.id),
                                    'lock-records:' || l.id, 'lock-records:' || l.id, null, 3))::int as n
         from locks l
         left join lock_record_cursors c on c.tenant_id = l.tenant_id and c.lock_id = l.id
        where l.provider = any ($1::lock_provider[]) and l.device_id ~ $2
          and (c.next_poll_at is null or c.next_poll_at <= now())`,
    ),
    [READ_PROVIDERS, TTLOCK_DEVICE.source],
  );
  return rows[0]?.n ?? 0;
}

type LockRow = {
  provider: (typeof READ_PROVIDERS)[number];
  device_id: string;
  created_at: Date;
  read_until: Date | null;
};

/**
 * Reads one lock's records from its provider and stores its openings and lockings as entries, then moves the lock's
 * cursor to when this read began — in one transaction, so the cursor never passes a record that is not stored. The
 * read asks from the cursor minus `RECORDS_OVERLAP_MS` (records uploaded late are found by a later read; those
 * already stored are skipped, and each is stored once whatever runs twice), never from before the tenant held the
 * lock. A read that fails stores nothing and keeps the cursor; the lock is read again later, backing off.
 */
export async function pollLockRecords(input: { tenantId: string; lockId: string }): Promise<PollOutcome> {
  const { tenantId, lockId } = input;
  const [locks] = await runStatements({ role: 'app_service', tenantId }, [
    statement<LockRow>(
      `select l.provider::text as provider, l.device_id, l.created_at, c.read_until
         from locks l
         left join lock_record_cursors c on c.tenant_id = l.tenant_id and c.lock_id = l.id
        where l.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and l.id = ${sqlLiteral(lockId, 'uuid')}`,
    ),
  ]);
  const lock = locks[0];
  if (!lock || !READ_PROVIDERS.includes(lock.provider) || !TTLOCK_DEVICE.test(lock.device_id))
    return { status: 'skipped' };
  const startedAt = new Date();
  const from = new Date(
    Math.max(lock.created_at.getTime(), (lock.read_until ?? startedAt).getTime() - RECORDS_OVERLAP_MS),
  );
  const connection = await lockProviderFor(tenantId, lock.provider);
  if (!connection.ok) return failed(input, connection.code);
  if (!connection.data.listDoorRecords) return { status: 'skipped' };
  const read = await connection.data.listDoorRecords({
    deviceId: lock.device_id,
    from,
    correlationId: `lock-records:${lockId}`,
  });
  if (!read.ok) return failed(input, read.code);
  const doorEvents = read.data.filter((record) => record.kind !== null);
  const [stored] = await runStatements({ role: 'app_service', tenantId }, [
    storeRecordsStatement({ tenantId, provider: lock.provider, deviceId: lock.device_id, records: doorEvents }),
    statement(
      `insert into lock_record_cursors (tenant_id, lock_id, read_until, polled_at, next_poll_at, failures, last_error)
       values (${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(lockId, 'uuid')}, ${sqlLiteral(startedAt, 'timestamptz')},
               now(), null, 0, null)
       on conflict (tenant_id, lock_id) do update
         set read_until = greatest(lock_record_cursors.read_until, excluded.read_until), polled_at = now(),
             next_poll_at = null, failures = 0, last_error = null`,
    ),
  ]);
  const fresh = stored.filter((row) => !row.duplicate).length;
  if (fresh > 0) logger.info({ tenantId, lockId, stored: fresh }, 'lock records stored');
  return { status: 'read', records: read.data.length, stored: fresh };
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

/** A read that failed: nothing stored, the cursor kept, the lock read again after a backoff. */
async function failed(input: { tenantId: string; lockId: string }, code: string): Promise<PollOutcome> {
  logger.warn({ tenantId: input.tenantId, lockId: input.lockId, code }, 'lock records could not be read');
  await runStatements({ role: 'app_service', tenantId: input.tenantId }, [
    statement(
      `insert into lock_record_cursors (tenant_id, lock_id, polled_at, next_poll_at, failures, last_error)
       values (${sqlLiteral(input.tenantId, 'uuid')}, ${sqlLiteral(input.lockId, 'uuid')}, now(),
               now() + interval '1 minute', 1, ${sqlLiteral(code.slice(0, 200), 'text')})
       on conflict (tenant_id, lock_id) do update
         set polled_at = now(), failures = lock_record_cursors.failures + 1, last_error = excluded.last_error,
             next_poll_at = now() + make_interval(
               mins => least(${MAX_BACKOFF_MINUTES}, power(2, least(lock_record_cursors.failures + 1, 10)))::int)`,
    ),
  ]);
  return { status: 'failed', code };
}
