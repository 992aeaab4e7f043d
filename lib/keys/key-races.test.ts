import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelReservation } from '../bookings/cancel-reservation';
import { completeCheckIn } from '../stays/complete-check-in';
import { deleteGuest } from '../guests/delete-guest';
import { adminClient, bookRoom, createBookableTenant, loginClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { issueCheckInKey } from '../stays/issue-check-in-key';

// Two paths racing to end one key must leave one ending: one status, one reason, one audit row,
// one removal job. Each race is played for real: a second connection holds the first path's
// transaction open (its row locks taken) while the second path runs and blocks on them, then commits.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

/** A login connection inside a service-role transaction scoped to the tenant, left open. */
async function openServiceTx(tenantId: string): Promise<pg.Client> {
  const client = await loginClient();
  await client.query('begin');
  await client.query(`select set_config('role', 'app_service', true), set_config('app.tenant_id', $1, true)`, [
    tenantId,
  ]);
  return client;
}

/** Waits until some backend of this database waits on a lock: the second path is blocked behind the first. */
async function untilSomeoneWaits(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await admin.query(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the second path never blocked on the first one');
}

/** Runs `second` while `holder` keeps its transaction open, then commits the holder and waits for `second`. */
async function race<T>(holder: pg.Client, second: () => Promise<T>): Promise<T> {
  const pending = second();
  pending.catch(() => {});
  await untilSomeoneWaits();
  await holder.query('commit');
  await holder.end();
  return pending;
}

async function endings(keyId: string) {
  const audit = await admin.query(
    `select action, reason from audit_events where subject_id = $1 and action in ('key.revoked', 'key.expired') order by occurred_at`,
    [keyId],
  );
  const jobs = await admin.query(
    `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'vendor_remove_key' and j.payload->>'keyId' = $1`,
    [keyId],
  );
  const key = await admin.query(`select status, revoked_reason from access_keys where id = $1`, [keyId]);
  return { key: key.rows[0], audit: audit.rows, removalJobs: jobs.rows[0].n };
}

describe('two paths ending one key', () => {
  it('revoke racing cancel: the revocation stands, one audit row, one removal job', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 30 });
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
    const keyId = rows[0].id;

    const desk = await openServiceTx(tenantId);
    await desk.query(`select id from app_end_key($1, $2, 'revoked', 'lost phone', 'user', null, 'Desk')`, [
      tenantId,
      keyId,
    ]);
    await race(desk, () =>
      cancelReservation({ tenantId, reservationId, reason: 'guest cancelled', actor: TEST_ACTOR }),
    );

    expect(await endings(keyId)).toEqual({
      key: { status: 'revoked', revoked_reason: 'lost phone' },
      audit: [{ action: 'key.revoked', reason: 'lost phone' }],
      removalJobs: 1,
    });
    const reservation = await admin.query(`select status from reservations where id = $1`, [reservationId]);
    expect(reservation.rows[0].status).toBe('cancelled');
  });

  it('expiry racing issuance: the key expires once, and the check-in gets a new key', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { checkInId, key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    await admin.query(
      `update access_keys set valid_from = now() - interval '2 hours', expires_at = now() - interval '1 second' where id = $1`,
      [key.id],
    );

    const sweep = await openServiceTx(tenantId);
    await sweep.query(`select app_end_key($1, $2, 'expired', 'stay_ended', 'system', null, 'expiry')`, [
      tenantId,
      key.id,
    ]);
    const next = await race(sweep, () => issueCheckInKey({ tenantId, checkInId, actor: TEST_ACTOR }));

    expect(next.id).not.toBe(key.id);
    expect(await endings(key.id)).toEqual({
      key: { status: 'expired', revoked_reason: null },
      audit: [{ action: 'key.expired', reason: 'stay_ended' }],
      removalJobs: 1,
    });
  });

  it('deletion racing check-in: the pre-issued key ends once, as superseded by the check-in', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId, guestId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
    const preIssuedId = rows[0].id;

    // The desk's check-in, as completeCheckIn does it: the reservation locked, the pre-issued key superseded.
    const desk = await openServiceTx(tenantId);
    await desk.query(`select id from reservations where tenant_id = $1 and id = $2 for update`, [
      tenantId,
      reservationId,
    ]);
    await desk.query(`select id from app_end_key($1, $2, 'revoked', 'superseded_by_checkin', 'user', null, 'Desk')`, [
      tenantId,
      preIssuedId,
    ]);
    await race(desk, () => deleteGuest({ tenantId, guestId, actor: TEST_ACTOR }));

    expect(await endings(preIssuedId)).toEqual({
      key: { status: 'revoked', revoked_reason: 'superseded_by_checkin' },
      audit: [{ action: 'key.revoked', reason: 'superseded_by_checkin' }],
      removalJobs: 1,
    });
  });

  it('many concurrent enders of one key leave exactly one ending audit row', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 30 });
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
    const keyId = rows[0].id;
    const clients = await Promise.all(Array.from({ length: 6 }, () => openServiceTx(tenantId)));
    const results = await Promise.all(
      clients.map(async (client, i) => {
        const status = i % 2 === 0 ? 'revoked' : 'expired';
        const ended = await client.query(
          `select id from app_end_key($1, $2, $3::key_status, $4, 'system', null, 'racer')`,
          [tenantId, keyId, status, `racer ${i}`],
        );
        await client.query('commit');
        await client.end();
        return ended.rows[0].id as string | null;
      }),
    );
    expect(results.filter((id) => id !== null)).toHaveLength(1);
    const { audit, removalJobs } = await endings(keyId);
    expect(audit).toHaveLength(1);
    expect(removalJobs).toBe(1);
  });
});

describe('an ended key in SQL', () => {
  it('refuses any change of status, window or reason, even to the same value (UK001), but takes lock-sync bookkeeping', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 30 });
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
    const keyId = rows[0].id;
    await admin.query(
      `update access_keys set status = 'revoked', revoked_reason = 'first', revoked_at = now() where id = $1`,
      [keyId],
    );
    const attempt = (sql: string) =>
      admin.query(sql, [keyId]).then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      );
    expect(await attempt(`update access_keys set status = 'revoked' where id = $1`)).toBe('UK001');
    expect(await attempt(`update access_keys set status = 'revoked', revoked_reason = 'second' where id = $1`)).toBe(
      'UK001',
    );
    expect(await attempt(`update access_keys set revoked_reason = 'second' where id = $1`)).toBe('UK001');
    expect(await attempt(`update access_keys set expires_at = expires_at + interval '1 day' where id = $1`)).toBe(
      'UK001',
    );
    expect(await attempt(`update access_keys set valid_from = valid_from where id = $1`)).toBe('UK001');
    expect(await attempt(`update access_keys set revoked_at = now() where id = $1`)).toBe('UK001');
    expect(await attempt(`update access_keys set vendor_sync = 'synced', vendor_error = null where id = $1`)).toBe(
      'ok',
    );
    expect(
      (await admin.query(`select status, revoked_reason from access_keys where id = $1`, [keyId])).rows[0],
    ).toEqual({ status: 'revoked', revoked_reason: 'first' });
  });

  it('app_end_key on an ended key changes nothing, writes no audit row and queues no removal', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 30 });
    const { rows } = await admin.query(`select id from access_keys where reservation_id = $1`, [reservationId]);
    const keyId = rows[0].id;
    const client = await openServiceTx(tenantId);
    await client.query(`select app_end_key($1, $2, 'revoked', 'first', 'system', null, 'one')`, [tenantId, keyId]);
    const again = await client.query(
      `select id from app_end_key($1, $2, 'expired', 'stay_ended', 'system', null, 'two')`,
      [tenantId, keyId],
    );
    expect(again.rows[0].id).toBeNull();
    await client.query('commit');
    await client.end();
    expect(await endings(keyId)).toEqual({
      key: { status: 'revoked', revoked_reason: 'first' },
      audit: [{ action: 'key.revoked', reason: 'first' }],
      removalJobs: 1,
    });
  });
});
