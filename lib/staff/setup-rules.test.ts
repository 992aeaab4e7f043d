import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBookingSource } from '../bookings/booking-sources';
import { createBookingGroup } from '../bookings/create-booking-group';
import { loadStaffIdentity } from '../auth/staff';
import { signInWithPassword } from '../auth/sign-in';
import { archiveRoom, restoreRoom } from '../rooms/archive-room';
import { createStaffUser } from './create-staff-user';
import { joinTenant } from '../../tooling/testing/accounts';
import { adminClient, bookRoom, createBookableTenant, loginClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { changeMemberRole, setMemberActive } from './members';

// The two rules the setup pages rely on, held by the database whoever writes: an archived room
// takes no new stay, and a tenant keeps an active manager. Plus what a deactivated member can do.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const member = async (tenantId: string, role: 'manager' | 'front_desk', password = 'a long password') => {
  const email = `${role}-${randomBytes(4).toString('hex')}@example.com`;
  const { id } = await createStaffUser({ tenantId, email, password, role, name: role });
  return { id, email, password };
};

/** One statement as the service role scoped to the tenant, on the login role's connection: its rows or its SQLSTATE. */
async function asServiceSql(tenantId: string, sql: string, params: unknown[]) {
  const login = await loginClient();
  try {
    await login.query('begin');
    await login.query(`select set_config('role', 'app_service', true), set_config('app.tenant_id', $1, true)`, [
      tenantId,
    ]);
    const result = await login.query(sql, params);
    await login.query('commit');
    return { rows: result.rows };
  } catch (error) {
    await login.query('rollback').catch(() => {});
    return { code: (error as { code?: string }).code, detail: (error as { detail?: string }).detail };
  } finally {
    await login.end();
  }
}

describe('an archived room', () => {
  it('takes no new reservation and no reservation moves into it (UR005 → room_unavailable), and takes them again once restored', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2, lockDevices: false });
    const [archived, other] = [roomIds[0]!, roomIds[1]!];
    const { reservationId } = await bookRoom({ tenantId, roomId: other, startsInHours: 48 });
    expect(await archiveRoom({ tenantId, roomId: archived, actor: TEST_ACTOR })).toEqual({
      id: archived,
      archived: true,
    });

    // Straight SQL as the service role: the trigger, not the domain's checks, refuses.
    const insert = await asServiceSql(
      tenantId,
      `insert into reservations (tenant_id, room_id, starts_at, ends_at, source, room_label_snapshot, guest_ref_snapshot)
       values ($1, $2, now() + interval '3 days', now() + interval '4 days', 'api', 'x', 'guest_x')`,
      [tenantId, archived],
    );
    expect(insert).toEqual({ code: 'UR005', detail: JSON.stringify([archived]) });
    const move = await asServiceSql(tenantId, `update reservations set room_id = $2 where id = $1`, [
      reservationId,
      archived,
    ]);
    expect(move).toMatchObject({ code: 'UR005' });

    // Through the domain: the desk's, the API's and the providers' booking path answer room_unavailable.
    const booking = createBookingGroup({
      tenantId,
      actor: TEST_ACTOR,
      guest: { name: 'Late Guest' },
      source: 'api',
      reservations: [
        { roomId: archived, startsAt: new Date(Date.now() + 72 * 3.6e6), endsAt: new Date(Date.now() + 96 * 3.6e6) },
      ],
    });
    await expect(booking).rejects.toMatchObject({
      code: 'room_unavailable',
      details: { roomIds: [archived], reason: 'room_archived' },
    });
    // Nor is a booking provider's event type mapped to it: its bookings would all be refused.
    await expect(
      addBookingSource({ tenantId, provider: 'cal', eventType: '77', roomId: archived, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'conflict' });
    const rows = await admin.query(
      `select count(*)::int as n from reservations where tenant_id = $1 and room_id = $2`,
      [tenantId, archived],
    );
    expect(rows.rows[0].n).toBe(0);

    // Other updates of a reservation in an archived room (its dates, its status) still work.
    await restoreRoom({ tenantId, roomId: archived, actor: TEST_ACTOR });
    const { reservationId: kept } = await bookRoom({ tenantId, roomId: archived, startsInHours: 200 });
    await admin.query(`update reservations set status = 'cancelled', cancelled_at = now() where id = $1`, [kept]);
    await archiveRoom({ tenantId, roomId: archived, actor: TEST_ACTOR });
    const shift = await asServiceSql(
      tenantId,
      `update reservations set cancel_reason = 'x' where id = $1 returning id`,
      [kept],
    );
    expect(shift).toEqual({ rows: [{ id: kept }] });

    const audit = await admin.query(
      `select action, metadata->>'label' as label from audit_events where tenant_id = $1 and subject_id = $2 order by occurred_at`,
      [tenantId, archived],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['room.archived', 'room.restored', 'room.archived']);
  });

  it('cannot be archived while stays are to come (conflict, listing them), and archiving twice writes one row', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const roomId = roomIds[0]!;
    const { reservationId } = await bookRoom({ tenantId, roomId, startsInHours: 24 });
    await expect(archiveRoom({ tenantId, roomId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'conflict',
      details: { reservationIds: [reservationId] },
    });
    const state = await admin.query(`select archived_at from rooms where id = $1`, [roomId]);
    expect(state.rows[0].archived_at).toBeNull();

    await admin.query(`update reservations set status = 'cancelled', cancelled_at = now() where id = $1`, [
      reservationId,
    ]);
    const [first, second] = await Promise.all([
      archiveRoom({ tenantId, roomId, actor: TEST_ACTOR }),
      archiveRoom({ tenantId, roomId, actor: TEST_ACTOR }),
    ]);
    expect([first.archived, second.archived]).toEqual([true, true]);
    const audit = await admin.query(`select count(*)::int as n from audit_events where subject_id = $1`, [roomId]);
    expect(audit.rows[0].n).toBe(1);
  });

  it('is not another tenant’s to archive', async () => {
    const mine = await createBookableTenant({ rooms: 1, lockDevices: false });
    const theirs = await createBookableTenant({ rooms: 1, lockDevices: false });
    await expect(
      archiveRoom({ tenantId: mine.tenantId, roomId: theirs.roomIds[0]!, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const state = await admin.query(`select archived_at from rooms where id = $1`, [theirs.roomIds[0]]);
    expect(state.rows[0].archived_at).toBeNull();
  });
});

describe('a tenant’s last active manager', () => {
  it('cannot be demoted or deactivated (UM001 → last_manager), by the domain or by SQL', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const only = await member(tenantId, 'manager');
    await member(tenantId, 'front_desk');
    await expect(
      changeMemberRole({ tenantId, userId: only.id, role: 'front_desk', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'last_manager' });
    await expect(
      setMemberActive({ tenantId, userId: only.id, active: false, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'last_manager' });
    const sql = await asServiceSql(tenantId, `update memberships set deactivated_at = now() where user_id = $1`, [
      only.id,
    ]);
    expect(sql).toMatchObject({ code: 'UM001' });
    const row = await admin.query(`select role, deactivated_at from memberships where user_id = $1`, [only.id]);
    expect(row.rows).toEqual([{ role: 'manager', deactivated_at: null }]);
    const audit = await admin.query(`select count(*)::int as n from audit_events where subject_id = $1`, [only.id]);
    expect(audit.rows[0].n).toBe(0);
  });

  it('stays a manager when two managers demote each other at the same moment', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const [a, b] = [await member(tenantId, 'manager'), await member(tenantId, 'manager')];
    const results = await Promise.allSettled([
      changeMemberRole({ tenantId, userId: a.id, role: 'front_desk', actor: TEST_ACTOR }),
      setMemberActive({ tenantId, userId: b.id, active: false, actor: TEST_ACTOR }),
    ]);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'last_manager' });
    const managers = await admin.query(
      `select count(*)::int as n from memberships where tenant_id = $1 and role = 'manager' and deactivated_at is null`,
      [tenantId],
    );
    expect(managers.rows[0].n).toBe(1);
  });

  it('can step down once another member is a manager; changes are audited with readable metadata', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    const [a, b] = [await member(tenantId, 'manager'), await member(tenantId, 'front_desk')];
    await changeMemberRole({ tenantId, userId: b.id, role: 'manager', actor: TEST_ACTOR });
    await changeMemberRole({ tenantId, userId: a.id, role: 'front_desk', actor: TEST_ACTOR });
    const audit = await admin.query(
      `select action, metadata from audit_events where tenant_id = $1 and action like 'member.%' order by occurred_at`,
      [tenantId],
    );
    expect(audit.rows).toEqual([
      { action: 'member.role_changed', metadata: { email: b.email, from: 'front_desk', to: 'manager' } },
      { action: 'member.role_changed', metadata: { email: a.email, from: 'manager', to: 'front_desk' } },
    ]);
  });
});

describe('a deactivated member', () => {
  it('cannot sign in, and their existing session has no tenant from the next request on; reactivating restores both', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1, lockDevices: false });
    await member(tenantId, 'manager');
    const desk = await member(tenantId, 'front_desk');
    expect(await signInWithPassword({ email: desk.email, password: desk.password, address: '10.0.0.1' })).toMatchObject(
      {
        ok: true,
      },
    );

    await setMemberActive({ tenantId, userId: desk.id, active: false, actor: TEST_ACTOR });
    expect(await signInWithPassword({ email: desk.email, password: desk.password, address: '10.0.0.1' })).toEqual({
      ok: false,
    });
    // What getStaff loads for the session's user id on every request: no membership, so no tenant.
    expect((await loadStaffIdentity(desk.id, 0))?.memberships).toEqual([]);

    await setMemberActive({ tenantId, userId: desk.id, active: true, actor: TEST_ACTOR });
    expect((await loadStaffIdentity(desk.id, 0))?.memberships).toMatchObject([{ tenantId, role: 'front_desk' }]);
    expect(await signInWithPassword({ email: desk.email, password: desk.password, address: '10.0.0.1' })).toMatchObject(
      {
        ok: true,
      },
    );
  });

  it('keeps the other tenants they belong to', async () => {
    const first = await createBookableTenant({ rooms: 1, lockDevices: false });
    const second = await createBookableTenant({ rooms: 1, lockDevices: false });
    await member(first.tenantId, 'manager');
    const desk = await member(first.tenantId, 'front_desk');
    await joinTenant({ userId: desk.id, email: desk.email, tenantId: second.tenantId, role: 'front_desk' });
    await setMemberActive({ tenantId: first.tenantId, userId: desk.id, active: false, actor: TEST_ACTOR });
    expect((await loadStaffIdentity(desk.id, 0))?.memberships.map((m) => m.tenantId)).toEqual([second.tenantId]);
    expect(await signInWithPassword({ email: desk.email, password: desk.password, address: '10.0.0.2' })).toMatchObject(
      {
        ok: true,
      },
    );
  });
});
