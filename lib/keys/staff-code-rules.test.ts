import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveRoom } from '../rooms/archive-room';
import { setMemberActive } from '../staff/members';
import { createStaffUser } from '../staff/create-staff-user';
import { adminClient, asRole, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { reissueKey } from './reissue-key';
import { createStaffCode } from './staff-codes';

// Issue 28, item 7: a staff code's rules are one rule in SQL, the same from the desk, the API, a
// re-issue or a statement of the service role: at most 31 days, for an active member, on a room
// that takes codes; and a code ends when its member is deactivated or its room archived.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const DAY = 86_400_000;

async function staffCount(tenantId: string): Promise<number> {
  const { rows } = await admin.query(
    `select count(*)::int as n from access_keys where tenant_id = $1 and kind = 'staff'`,
    [tenantId],
  );
  return rows[0].n;
}

async function member(tenantId: string) {
  const created = await createStaffUser({
    tenantId,
    email: `cleaner-${Math.random().toString(36).slice(2)}@example.test`,
    password: 'a long enough password',
    role: 'front_desk',
  });
  return created.id;
}

describe('a staff code’s window', () => {
  it('is at most 31 days on every path: the domain function (desk and API) and a raw insert as the service role', async () => {
    const t = await createBookableTenant();
    const room = t.roomIds[0]!;
    const before = await staffCount(t.tenantId);
    await expect(
      createStaffCode({
        tenantId: t.tenantId,
        roomId: room,
        label: 'Forever',
        purpose: 'maintenance',
        startsAt: new Date(Date.now() + 60_000),
        endsAt: new Date('2036-01-01T00:00:00Z'),
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    // A statement of the service role that skips the function meets the same rule.
    const raw = await asRole(
      'app_service',
      t.tenantId,
      `insert into access_keys (tenant_id, room_id, status, pin, valid_from, expires_at, kind, staff_label, staff_purpose)
       values ($1, $2, 'active', '93817265', now(), now() + interval '40 days', 'staff', 'raw', 'maintenance')`,
      [t.tenantId, room],
    );
    expect(raw).toEqual({ code: 'UK006' });
    expect(await staffCount(t.tenantId)).toBe(before);

    const ok = await createStaffCode({
      tenantId: t.tenantId,
      roomId: room,
      label: 'Month',
      purpose: 'housekeeping',
      startsAt: new Date(Date.now() + 60_000),
      endsAt: new Date(Date.now() + 31 * DAY),
      actor: TEST_ACTOR,
    });
    expect(ok.status).toBe('active');
  });
});

describe('a staff code ends with its member or its room', () => {
  it('deactivating the member revokes their live codes (member_deactivated); a re-issue for them is refused', async () => {
    const t = await createBookableTenant();
    const userId = await member(t.tenantId);
    const code = await createStaffCode({
      tenantId: t.tenantId,
      roomId: t.roomIds[0]!,
      label: 'Cleaning',
      purpose: 'housekeeping',
      startsAt: new Date(Date.now() + 60_000),
      endsAt: new Date(Date.now() + 2 * DAY),
      userId,
      actor: TEST_ACTOR,
    });
    await setMemberActive({ tenantId: t.tenantId, userId, active: false, actor: TEST_ACTOR });
    const { rows } = await admin.query(`select status::text, revoked_reason from access_keys where id = $1`, [code.id]);
    expect(rows[0]).toEqual({ status: 'revoked', revoked_reason: 'member_deactivated' });
    const { rows: jobs } = await admin.query(
      `select 1 from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id
        where k.identifier = 'vendor_remove_key' and j.payload->>'keyId' = $1`,
      [code.id],
    );
    expect(jobs).toHaveLength(1);
    await expect(
      reissueKey({ tenantId: t.tenantId, keyId: code.id, reason: 'again', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'illegal_transition' });
    // No new code for a deactivated member either.
    await expect(
      createStaffCode({
        tenantId: t.tenantId,
        roomId: t.roomIds[0]!,
        label: 'Cleaning',
        purpose: 'housekeeping',
        startsAt: new Date(Date.now() + 60_000),
        endsAt: new Date(Date.now() + DAY),
        userId,
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('archiving the room revokes its live codes (room_archived)', async () => {
    const t = await createBookableTenant();
    const code = await createStaffCode({
      tenantId: t.tenantId,
      roomId: t.roomIds[1]!,
      label: 'Inspection',
      purpose: 'inspection',
      startsAt: new Date(Date.now() + 60_000),
      endsAt: new Date(Date.now() + DAY),
      actor: TEST_ACTOR,
    });
    await archiveRoom({ tenantId: t.tenantId, roomId: t.roomIds[1]!, actor: TEST_ACTOR });
    const { rows } = await admin.query(`select status::text, revoked_reason from access_keys where id = $1`, [code.id]);
    expect(rows[0]).toEqual({ status: 'revoked', revoked_reason: 'room_archived' });
  });
});
