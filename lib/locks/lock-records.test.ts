import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SimulatorRecord } from '../../tooling/simulator/lock-simulator';
import { bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { withSimulatorProvider } from '../../tooling/testing/lock-simulator';
import { deleteGuest } from '../guests/delete-guest';
import { completeCheckIn } from '../stays/complete-check-in';
import { listDoorEntries } from './door-entries';
import { setInstallLockProviderForTests } from './install-provider';
import {
  enqueueLockRecordPolls,
  pollLockRecords,
  pollTenantLockRecords,
  RECORDS_OVERLAP_MS,
} from './poll-lock-records';
import { programKeyOnLock } from './sync-provider';

// TTLock lock records (issue 33, item 1) against the simulator, which speaks TTLock's open platform: the worker reads
// each lock's /v3/lockRecord/list with a cursor kept in PostgreSQL, so a restart resumes with no gap and no
// duplicate, records a gateway uploads late are still found, a passcode record names the key by the PIN typed on that
// very lock, and each new opening is audited door.opened once.
const env = withSimulatorProvider();

type Site = Awaited<ReturnType<typeof site>>;

/** A tenant with two rooms on simulator locks, a checked-in stay in the first whose code is on its lock. */
async function site() {
  const tenant = await createBookableTenant({ rooms: 2, name: 'Records' });
  const { rows: doors } = await env.admin.query<{ room_id: string; lock_id: string; device_id: string }>(
    `select d.room_id, l.id as lock_id, l.device_id from room_locks d join locks l on l.tenant_id = d.tenant_id and l.id = d.lock_id
      where d.tenant_id = $1`,
    [tenant.tenantId],
  );
  // Held for two days: records from before the tenant held a lock are never its entries.
  await env.admin.query(`update locks set created_at = now() - interval '2 days' where tenant_id = $1`, [
    tenant.tenantId,
  ]);
  const door = (roomId: string) => doors.find((d) => d.room_id === roomId)!;
  const stay = async (roomId: string) => {
    const booked = await bookRoom({ tenantId: tenant.tenantId, roomId, startsInHours: -1 });
    const { key } = await completeCheckIn({
      tenantId: tenant.tenantId,
      reservationId: booked.reservationId,
      actor: TEST_ACTOR,
    });
    await programKeyOnLock({ tenantId: tenant.tenantId, keyId: key.id, attempt: 1, maxAttempts: 5 });
    const { rows } = await env.admin.query<{ pin: string }>(`select pin from access_keys where id = $1`, [key.id]);
    return { ...booked, keyId: key.id, pin: rows[0]!.pin };
  };
  return {
    ...tenant,
    roomId: tenant.roomIds[0]!,
    lock: door(tenant.roomIds[0]!),
    otherLock: door(tenant.roomIds[1]!),
    first: await stay(tenant.roomIds[0]!),
    second: await stay(tenant.roomIds[1]!),
  };
}

/** Someone at a door of the simulator: the record its lock writes (`held`: not uploaded by its gateway yet). */
async function atDoor(
  deviceId: string,
  action: 'open' | 'lock',
  body: { pin?: string; method?: string; at?: number; held?: boolean } = {},
): Promise<SimulatorRecord> {
  const answer = (await env.sim.control(`/_control/locks/${deviceId}/${action}`, body)) as { record: SimulatorRecord };
  if (!answer.record) throw new Error(`the simulator refused: ${JSON.stringify(answer)}`);
  return answer.record;
}

const entriesOf = async (tenantId: string, lockId?: string) =>
  (
    await env.admin.query<{
      provider_event_id: string;
      kind: string;
      method: string;
      key_id: string | null;
      occurred_at: Date;
    }>(
      `select provider_event_id, kind, method, key_id, occurred_at from door_entries
        where tenant_id = $1 and ($2::uuid is null or lock_id = $2) order by occurred_at, provider_event_id`,
      [tenantId, lockId ?? null],
    )
  ).rows;

const openedAudits = async (tenantId: string) =>
  (
    await env.admin.query<{
      actor_type: string;
      actor_id: string;
      actor_label: string;
      subject_id: string;
      room_id: string | null;
      metadata: Record<string, unknown>;
    }>(
      `select actor_type, actor_id, actor_label, subject_id, room_id, metadata from audit_events
        where tenant_id = $1 and action = 'door.opened' order by occurred_at, id`,
      [tenantId],
    )
  ).rows;

const cursorOf = async (s: Site) =>
  (
    await env.admin.query(
      `select read_until, failures, last_error, next_poll_at from lock_record_cursors where tenant_id = $1 and lock_id = $2`,
      [s.tenantId, s.lock.lock_id],
    )
  ).rows[0];

describe('TTLock lock records', () => {
  it('are read across a restart with no gap and no duplicate, late uploads included, each opening audited once', async () => {
    const s = await site();
    const poll = () => pollLockRecords({ tenantId: s.tenantId, lockId: s.lock.lock_id });
    const now = Date.now();
    const byPin = await atDoor(s.lock.device_id, 'open', { pin: s.first.pin });
    const byKey = await atDoor(s.lock.device_id, 'open', { method: 'key', at: now - 20 * 60_000 });
    const locked = await atDoor(s.lock.device_id, 'lock', { method: 'auto', at: now - 19 * 60_000 });
    expect(await poll()).toEqual({ status: 'read', records: 3, stored: 3 });
    const firstCursor = await cursorOf(s);
    expect(firstCursor).toMatchObject({ failures: 0, last_error: null });

    // The worker stops. Meanwhile: an opening the lock keeps (its gateway uploads it later), one uploaded at once,
    // a wrong PIN (a failed record: no opening), and a read that fails (nothing stored, the cursor kept).
    const late = await atDoor(s.lock.device_id, 'open', { method: 'app', at: now - 3 * 3_600_000, held: true });
    const prompt = await atDoor(s.lock.device_id, 'open', { method: 'button' });
    const wrong = await atDoor(s.lock.device_id, 'open', { pin: '00000000' });
    expect([late.serverDate, prompt.serverDate !== null, wrong.success]).toEqual([null, true, 0]);
    await env.sim.control('/_control/faults', { next: { count: 1, endpoint: '/v3/lockRecord/list', httpStatus: 502 } });
    expect(await poll()).toEqual({ status: 'failed', code: 'http_502' });
    expect(await cursorOf(s)).toMatchObject({
      read_until: firstCursor.read_until,
      failures: 1,
      last_error: 'http_502',
    });
    expect(await entriesOf(s.tenantId, s.lock.lock_id)).toHaveLength(3);

    // A restarted worker: a new client (no token, nothing in memory), the cursor from PostgreSQL.
    setInstallLockProviderForTests(env.sim.provider({ timeoutMs: 2_000 }));
    expect(await poll()).toMatchObject({ status: 'read', stored: 1 });
    // The gateway uploads what the lock kept: three hours old by the lock's clock, found by the overlap.
    expect(await env.sim.control(`/_control/locks/${s.lock.device_id}/upload`, {})).toEqual({ uploaded: 1 });
    expect(await poll()).toMatchObject({ status: 'read', stored: 1 });
    expect(await poll()).toMatchObject({ status: 'read', stored: 0 });
    expect(await cursorOf(s)).toMatchObject({ failures: 0, last_error: null, next_poll_at: null });

    const entries = await entriesOf(s.tenantId, s.lock.lock_id);
    expect(entries.map((e) => [e.provider_event_id, e.kind, e.method])).toEqual([
      [String(late.recordId), 'unlocked', 'app'],
      [String(byKey.recordId), 'unlocked', 'manual'],
      [String(locked.recordId), 'locked', 'unknown'],
      [String(byPin.recordId), 'unlocked', 'code'],
      [String(prompt.recordId), 'unlocked', 'manual'],
    ]);
    expect(entries.find((e) => e.provider_event_id === String(late.recordId))!.occurred_at).toEqual(
      new Date(late.lockDate),
    );
    // One door.opened per opening (the locking and the failed try have none), by the provider.
    const audits = await openedAudits(s.tenantId);
    expect(audits).toHaveLength(4);
    expect(new Set(audits.map((a) => a.metadata.entryId)).size).toBe(4);
    expect(audits.every((a) => a.actor_type === 'provider' && a.actor_label === 'simulator')).toBe(true);
  });

  it('name the key by the PIN typed on that lock, mark the stay arrived, and survive the guest’s deletion', async () => {
    const s = await site();
    const poll = () => pollLockRecords({ tenantId: s.tenantId, lockId: s.lock.lock_id });
    const opened = await atDoor(s.lock.device_id, 'open', { pin: s.first.pin });
    await atDoor(s.lock.device_id, 'open', { pin: s.first.pin, at: opened.lockDate + 60_000 });
    await poll();
    const entries = await entriesOf(s.tenantId, s.lock.lock_id);
    expect(entries.map((e) => [e.method, e.key_id])).toEqual([
      ['code', s.first.keyId],
      ['code', s.first.keyId],
    ]);
    const stay = await env.admin.query(`select arrived_at from reservations where tenant_id = $1 and id = $2`, [
      s.tenantId,
      s.first.reservationId,
    ]);
    expect(stay.rows[0].arrived_at).toEqual(new Date(opened.lockDate));
    const audits = await openedAudits(s.tenantId);
    expect(audits[0]).toMatchObject({
      actor_type: 'provider',
      subject_id: s.lock.lock_id,
      room_id: s.roomId,
      metadata: { method: 'code', keyId: s.first.keyId, reservationId: s.first.reservationId, remoteUnlockId: null },
    });

    // The guest is deleted: every entry stays, still linked to the key and its stay.
    await deleteGuest({ tenantId: s.tenantId, guestId: s.first.guestId, actor: TEST_ACTOR });
    expect(await entriesOf(s.tenantId, s.lock.lock_id)).toEqual(entries);
    const listed = await listDoorEntries({ tenantId: s.tenantId, reservationId: s.first.reservationId, limit: 10 });
    expect(listed.data).toHaveLength(2);
    expect(listed.data.every((e) => e.keyId === s.first.keyId && e.roomId === s.roomId)).toBe(true);
  });

  it('name no key for a PIN of another lock or another tenant, and read nothing of a lock another tenant holds', async () => {
    const s = await site();
    const theirs = await site();
    // A code on this lock we did not make carries the PIN of this tenant's other room, another one the PIN of the other
    // tenant's key: both open the door (the lock has them), neither names a key.
    const provider = env.sim.provider();
    for (const pin of [s.second.pin, theirs.first.pin]) {
      const set = await provider.programCode({
        deviceId: s.lock.device_id,
        pin,
        validFrom: new Date(Date.now() - 3_600_000),
        expiresAt: new Date(Date.now() + 3_600_000),
        clientRef: randomUUID(),
        correlationId: 'test',
      });
      expect(set.ok).toBe(true);
      expect((await atDoor(s.lock.device_id, 'open', { pin })).success).toBe(1);
    }
    await pollLockRecords({ tenantId: s.tenantId, lockId: s.lock.lock_id });
    expect((await entriesOf(s.tenantId, s.lock.lock_id)).map((e) => [e.method, e.key_id])).toEqual([
      ['code', null],
      ['code', null],
    ]);
    const stays = await env.admin.query(`select arrived_at from reservations where id = any($1)`, [
      [s.second.reservationId, theirs.first.reservationId],
    ]);
    expect(stays.rows).toEqual([{ arrived_at: null }, { arrived_at: null }]);

    // The other tenant's lock, asked for as this tenant's: nothing read, nothing stored for either.
    await atDoor(theirs.lock.device_id, 'open', { pin: theirs.first.pin });
    expect(await pollLockRecords({ tenantId: s.tenantId, lockId: theirs.lock.lock_id })).toEqual({ status: 'skipped' });
    expect(await entriesOf(theirs.tenantId)).toEqual([]);
    expect((await entriesOf(s.tenantId)).length).toBe(2);
    // Its own read finds its own key.
    await pollLockRecords({ tenantId: theirs.tenantId, lockId: theirs.lock.lock_id });
    expect((await entriesOf(theirs.tenantId)).map((e) => e.key_id)).toEqual([theirs.first.keyId]);
  });

  it('store each record once when reads of one lock run at the same time', async () => {
    const s = await site();
    for (let i = 0; i < 5; i++) await atDoor(s.lock.device_id, 'open', { method: 'key', at: Date.now() - i * 1000 });
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => pollLockRecords({ tenantId: s.tenantId, lockId: s.lock.lock_id })),
    );
    expect(outcomes.every((o) => o.status === 'read')).toBe(true);
    expect(outcomes.reduce((n, o) => n + (o.status === 'read' ? o.stored : 0), 0)).toBe(5);
    expect(await entriesOf(s.tenantId, s.lock.lock_id)).toHaveLength(5);
    expect(await openedAudits(s.tenantId)).toHaveLength(5);
  });

  it('read from the stored cursor minus the overlap, never from before the tenant held the lock', async () => {
    const s = await site();
    // The last complete read began 30 hours ago (a worker down for more than a day); the lock held for 60 hours.
    const readUntil = Date.now() - 30 * 3_600_000;
    await env.admin.query(`update locks set created_at = now() - interval '60 hours' where id = $1`, [s.lock.lock_id]);
    await env.admin.query(`insert into lock_record_cursors (tenant_id, lock_id, read_until) values ($1, $2, $3)`, [
      s.tenantId,
      s.lock.lock_id,
      new Date(readUntil),
    ]);
    const inside = await atDoor(s.lock.device_id, 'open', {
      method: 'key',
      at: readUntil - RECORDS_OVERLAP_MS + 60_000,
    });
    await atDoor(s.lock.device_id, 'open', { method: 'key', at: readUntil - RECORDS_OVERLAP_MS - 60_000 });
    await pollLockRecords({ tenantId: s.tenantId, lockId: s.lock.lock_id });
    expect((await entriesOf(s.tenantId, s.lock.lock_id)).map((e) => e.provider_event_id)).toEqual([
      String(inside.recordId),
    ]);
    // A lock the tenant has held for an hour, never read: its records from before are not the tenant's.
    await env.admin.query(`update locks set created_at = now() - interval '1 hour' where id = $1`, [
      s.otherLock.lock_id,
    ]);
    await atDoor(s.otherLock.device_id, 'open', { method: 'key', at: Date.now() - 2 * 3_600_000 });
    const held = await atDoor(s.otherLock.device_id, 'open', { method: 'key', at: Date.now() - 30 * 60_000 });
    await pollLockRecords({ tenantId: s.tenantId, lockId: s.otherLock.lock_id });
    expect((await entriesOf(s.tenantId, s.otherLock.lock_id)).map((e) => e.provider_event_id)).toEqual([
      String(held.recordId),
    ]);
  });

  it('are read for every due lock of a tenant by its one job: its locks only, a lock backing off left for later', async () => {
    const s = await site();
    const theirs = await site();
    await atDoor(s.lock.device_id, 'open', { pin: s.first.pin });
    await atDoor(s.otherLock.device_id, 'open', { pin: s.second.pin });
    await atDoor(theirs.lock.device_id, 'open', { pin: theirs.first.pin });
    // The other door's provider kept failing: it waits for its backoff.
    await env.admin.query(
      `insert into lock_record_cursors (tenant_id, lock_id, next_poll_at, failures) values ($1, $2, now() + interval '4 minutes', 2)`,
      [s.tenantId, s.otherLock.lock_id],
    );
    const outcomes = await pollTenantLockRecords(s.tenantId);
    expect([...outcomes.keys()]).toEqual([s.lock.lock_id]);
    expect(outcomes.get(s.lock.lock_id)).toMatchObject({ status: 'read', stored: 1 });
    expect((await entriesOf(s.tenantId)).map((e) => e.key_id)).toEqual([s.first.keyId]);
    expect(await entriesOf(theirs.tenantId)).toEqual([]);
    expect((await cursorOf(s))?.read_until).not.toBeNull();
    // Read again a minute later: nothing new, nothing stored twice.
    expect((await pollTenantLockRecords(s.tenantId)).get(s.lock.lock_id)).toMatchObject({ status: 'read', stored: 0 });
    expect(await entriesOf(s.tenantId)).toHaveLength(1);
  });

  it('are queued once for each tenant with TTLock or simulated locks, however often the cron runs', async () => {
    const s = await site();
    await enqueueLockRecordPolls();
    await enqueueLockRecordPolls();
    const { rows } = await env.admin.query(
      `select q.queue_name from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id and t.identifier = 'poll_lock_records'
         join graphile_worker._private_job_queues q on q.id = j.job_queue_id
        where j.payload->>'tenantId' = $1`,
      [s.tenantId],
    );
    expect(rows.map((r) => r.queue_name)).toEqual([`lock-records:${s.tenantId}`]);
  });
});
