import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { completeCheckIn } from './complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { issueCheckInKey } from './issue-check-in-key';

const run = promisify(execFile);

describe('issuing the key of a check-in', () => {
  it('gives 3 processes × 50 concurrent callers one and the same key', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { checkInId } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const admin = await adminClient();
    // Start from no live key (ended, not revoked by staff), so the processes race to issue one.
    await admin.query(`update access_keys set status = 'expired' where check_in_id = $1 and status = 'active'`, [
      checkInId,
    ]);
    await admin.query(`update reservations set status = 'checked_in' where id = $1`, [reservationId]);

    const outputs = await Promise.all(
      [1, 2, 3].map(() =>
        run(process.execPath, ['--import', 'tsx', 'tooling/testing/issue-key-process.ts', tenantId, checkInId, '50'], {
          env: { ...process.env, DB_POOL_MAX: '10' },
        }),
      ),
    );
    const ids = outputs.flatMap((o) => JSON.parse(o.stdout) as string[]);
    expect(ids).toHaveLength(150);
    expect(new Set(ids).size).toBe(1);
    const { rows } = await admin.query(`select id from access_keys where check_in_id = $1 and status = 'active'`, [
      checkInId,
    ]);
    expect(rows).toEqual([{ id: ids[0] }]);
    const issued = await admin.query(
      `select count(*)::int as n from audit_events where action = 'key.issued' and subject_id = $1`,
      [ids[0]],
    );
    expect(issued.rows[0].n).toBe(1);
    await admin.end();
  }, 60_000);

  it('expires a stay key past its end before deciding, instead of tripping on the unique index', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { checkInId, key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const admin = await adminClient();
    await admin.query(
      `update access_keys set valid_from = now() - interval '2 hours', expires_at = now() - interval '1 second' where id = $1`,
      [key.id],
    );
    const next = await issueCheckInKey({ tenantId, checkInId, actor: TEST_ACTOR });
    expect(next.id).not.toBe(key.id);
    expect(next.status).toBe('active');
    const { rows } = await admin.query(`select status from access_keys where id = $1`, [key.id]);
    expect(rows[0].status).toBe('expired');
    await admin.end();
  });

  it('answers not_found for another tenant’s check-in', async () => {
    const a = await createBookableTenant();
    const b = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId: b.tenantId, roomId: b.roomIds[0]! });
    const { checkInId } = await completeCheckIn({ tenantId: b.tenantId, reservationId, actor: TEST_ACTOR });
    await expect(issueCheckInKey({ tenantId: a.tenantId, checkInId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('gives every live key of a room its own PIN of the room’s length', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const admin = await adminClient();
    await admin.query(`update rooms set pin_length = 4 where id = $1`, [roomIds[0]]);
    for (let i = 0; i < 12; i++)
      await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 2 + i * 30, hours: 24 });
    const { rows } = await admin.query(
      `select pin from access_keys where room_id = $1 and status in ('pre_issued', 'active')`,
      [roomIds[0]],
    );
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => /^\d{4}$/.test(r.pin))).toBe(true);
    expect(new Set(rows.map((r) => r.pin)).size).toBe(12);
    await admin.end();
  });
});

describe('pre-issued keys', () => {
  it('are valid from the facility’s lead time before the stay until its end', async () => {
    const { createFacility } = await import('../facilities/create-facility');
    const { createRoom } = await import('../rooms/create-room');
    const { createTenant } = await import('../staff/create-tenant');
    const tenant = await createTenant({ name: 'Lead time' });
    const facility = await createFacility({ tenantId: tenant.id, name: 'Early', timeZone: 'UTC', keyLeadMinutes: 45 });
    const room = await createRoom({ tenantId: tenant.id, facilityId: facility.id, label: '1' });
    const { reservationId } = await bookRoom({ tenantId: tenant.id, roomId: room.id, startsInHours: 10, hours: 5 });
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select extract(epoch from (r.starts_at - k.valid_from))::int as lead, k.expires_at = r.ends_at as until_end
       from access_keys k join reservations r on r.id = k.reservation_id where r.id = $1`,
      [reservationId],
    );
    expect(rows).toEqual([{ lead: 45 * 60, until_end: true }]);
    await admin.end();
  });
});
