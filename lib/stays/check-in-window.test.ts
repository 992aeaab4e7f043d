import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { adminClient, bookRoom, createBookableTenant, loginClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { completeCheckIn } from './complete-check-in';
import { routeHandler } from '../api/router';

const checkInRoute = routeHandler('POST', '/api/v1/reservations/{id}/check-in');

// A PIN that works before its stay can open a room someone else is sleeping in: a check-in is
// refused before the stay's start minus the facility's early check-in minutes, unless the desk
// insists — and then only when nobody else's stay overlaps the early hours.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

async function state(reservationId: string) {
  const { rows } = await admin.query(
    `select r.status, (select count(*)::int from check_ins c where c.reservation_id = r.id) as check_ins,
            (select string_agg(k.status::text, ',' order by k.created_at) from access_keys k where k.reservation_id = r.id) as keys
       from reservations r where r.id = $1`,
    [reservationId],
  );
  return rows[0];
}

const DAY = 86_400_000;

describe('checking in before the stay', () => {
  it('is refused days early with too_early and the moment it opens, writing nothing', async () => {
    const { tenantId, facilityId, roomIds } = await createBookableTenant();
    await admin.query(`update facilities set early_check_in_minutes = 90 where id = $1`, [facilityId]);
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 72 });
    const startsAt = (await admin.query(`select starts_at from reservations where id = $1`, [reservationId])).rows[0]
      .starts_at as Date;
    const error = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'too_early',
      details: { opensAt: new Date(startsAt.getTime() - 90 * 60_000).toISOString() },
    });
    expect(await state(reservationId)).toEqual({ status: 'confirmed', check_ins: 0, keys: 'pre_issued' });
  });

  it('opens at the start minus the facility’s early check-in minutes', async () => {
    const { tenantId, facilityId, roomIds } = await createBookableTenant();
    await admin.query(`update facilities set early_check_in_minutes = 120 where id = $1`, [facilityId]);
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 1 });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    expect(key.status).toBe('active');
  });

  it('is allowed early when the desk insists and the room is free: audited, the key works from now', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 48 });
    const before = Date.now();
    const { key, checkInId } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR, early: true });
    expect(new Date(key.validFrom).getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(new Date(key.validFrom).getTime()).toBeLessThan(before + 60_000);
    const audit = await admin.query(
      `select reason, metadata->>'early' as early from audit_events where action = 'checkin.completed' and subject_id = $1`,
      [reservationId],
    );
    expect(audit.rows).toEqual([{ reason: 'early_check_in', early: 'true' }]);
    expect((await admin.query(`select early from check_ins where id = $1`, [checkInId])).rows[0].early).toBe(true);
  });

  it('is refused early, even when the desk insists, while another stay overlaps the early hours', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    // Someone sleeps in the room tonight; our guest arrives tomorrow afternoon.
    await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -10, hours: 30 });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 26 });
    const error = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR, early: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'room_unavailable' });
    expect(await state(reservationId)).toEqual({ status: 'confirmed', check_ins: 0, keys: 'pre_issued' });
  });

  it('is enforced by the database itself: an early check-in row is refused (UC001) unless marked early', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 5 * 24 });
    const login = await loginClient();
    await login.query('begin');
    await login.query(`select set_config('role', 'app_service', true), set_config('app.tenant_id', $1, true)`, [
      tenantId,
    ]);
    const code = await login
      .query(`insert into check_ins (tenant_id, reservation_id) values ($1, $2)`, [tenantId, reservationId])
      .then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      );
    await login.query('rollback');
    await login.end();
    expect(code).toBe('UC001');
  });

  it('over the API: 409 too_early with opensAt; {"early": true} checks in', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { key: apiKey } = await createApiKey({ tenantId, name: 'pms', actor: TEST_ACTOR });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 3 * 24 });
    const call = (body?: unknown) =>
      checkInRoute(
        new Request(`http://test/api/v1/reservations/${reservationId}/check-in`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        { params: Promise.resolve({ id: reservationId }) },
      );
    const refused = await call();
    expect(refused.status).toBe(409);
    const { error } = await refused.json();
    expect(error).toMatchObject({ code: 'too_early', opensAt: expect.any(String) });
    expect(new Date(error.opensAt).getTime()).toBeGreaterThan(Date.now() + 2 * DAY);
    expect((await call({ early: 'yes' })).status).toBe(400);
    const early = await call({ early: true });
    expect(early.status).toBe(200);
    expect((await early.json()).data.key.status).toBe('active');
  });

  it('judges the room free exactly as the overlap of [now, start) with the live stays of the room, past stays or not', async () => {
    // app_room_free_until_start compares bounds (so an index finds the room's stays from now on, under
    // row-level security); this holds it to the range overlap it had, case by case, as the desk's role.
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 8 });
    const H = 3_600_000;
    const now = Date.now();
    const at = (hours: number) => new Date(now + hours * H);
    const stay = async (room: number, from: number, to: number, status = 'confirmed') =>
      (
        await admin.query(
          `insert into reservations (tenant_id, room_id, starts_at, ends_at, status, source, room_label_snapshot, guest_ref_snapshot)
           values ($1, $2, $3, $4, $5, 'api', 'R', 'g') returning id`,
          [tenantId, roomIds[room], at(from), at(to), status],
        )
      ).rows[0].id as string;
    const cases: { name: string; ours: string; free: boolean }[] = [];
    const ours = (room: number, from: number, to: number) => stay(room, from, to);
    // 0: someone sleeps in the room tonight.
    await stay(0, -10, 2);
    cases.push({ name: 'a live stay overlaps the early hours', ours: await ours(0, 26, 45), free: false });
    // 1: the last guest left an hour ago (still marked confirmed), and years of past stays.
    for (let day = 2; day < 40; day++) await stay(1, -24 * day - 19, -24 * day, 'checked_out');
    await stay(1, -20, -1);
    cases.push({ name: 'only past stays', ours: await ours(1, 26, 45), free: true });
    // 2: a cancelled stay over the early hours does not hold the room.
    await stay(2, -10, 20, 'cancelled');
    cases.push({ name: 'a cancelled stay', ours: await ours(2, 26, 45), free: true });
    // 3: a stay after ours does not matter.
    await stay(3, 50, 70);
    cases.push({ name: 'a stay after ours', ours: await ours(3, 26, 45), free: true });
    // 4: ours has already started: no early hours are left, whoever was there before.
    await stay(4, -30, -2, 'checked_in');
    cases.push({ name: 'ours already started', ours: await ours(4, -1, 20), free: true });
    // 5: the guest in the room now stays right up to our start.
    await stay(5, -10, 26, 'checked_in');
    cases.push({ name: 'a stay running up to our start', ours: await ours(5, 26, 45), free: false });
    // 6: a stay starting later today, before ours.
    await stay(6, 3, 20, 'held');
    cases.push({ name: 'a stay starting in the early hours', ours: await ours(6, 26, 45), free: false });
    // 7: nobody in the room (the neighbours' stays above are not ours to mind).
    cases.push({ name: 'an empty room', ours: await ours(7, 26, 45), free: true });

    const login = await loginClient();
    try {
      for (const c of cases) {
        await login.query('begin');
        await login.query(
          `select set_config('role', 'app_authenticated', true), set_config('app.tenant_id', $1, true)`,
          [tenantId],
        );
        const { rows } = await login.query(`select app_room_free_until_start($1, $2) as free`, [tenantId, c.ours]);
        await login.query('rollback');
        // The rule as it was written first: a live stay's range overlapping [least(now, start), start).
        const oracle = await admin.query(
          `select not exists (select 1 from reservations r join reservations o on o.tenant_id = r.tenant_id and o.room_id = r.room_id and o.id <> r.id
             where r.id = $1 and o.status in ('held', 'confirmed', 'checked_in')
               and tstzrange(o.starts_at, o.ends_at, '[)') && tstzrange(least(now(), r.starts_at), r.starts_at, '[)')) as free`,
          [c.ours],
        );
        expect({ case: c.name, free: rows[0].free }).toEqual({ case: c.name, free: c.free });
        expect({ case: c.name, free: oracle.rows[0].free }).toEqual({ case: c.name, free: c.free });
      }
      // Another tenant's reservation is not found: no overlap to report, so nothing about it leaks.
      const other = await createBookableTenant();
      await login.query('begin');
      await login.query(`select set_config('role', 'app_authenticated', true), set_config('app.tenant_id', $1, true)`, [
        other.tenantId,
      ]);
      const { rows } = await login.query(`select app_room_free_until_start($1, $2) as free`, [
        tenantId,
        cases[0]!.ours,
      ]);
      await login.query('rollback');
      expect(rows[0].free).toBe(true);
    } finally {
      await login.end();
    }
  });

  it('tells the desk when each check-in opens and whether the room is free before it', async () => {
    const { checkInWindows } = await import('./check-in-windows');
    const { tenantId, roomIds } = await createBookableTenant();
    await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -10, hours: 30 });
    const occupied = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 26 });
    const free = await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: 26 });
    const windows = await checkInWindows({ tenantId, reservationIds: [occupied.reservationId, free.reservationId] });
    expect(windows.get(occupied.reservationId)).toMatchObject({ roomFree: false });
    expect(windows.get(free.reservationId)).toMatchObject({ roomFree: true });
    const startsAt = (await admin.query(`select starts_at from reservations where id = $1`, [free.reservationId]))
      .rows[0].starts_at as Date;
    expect(windows.get(free.reservationId)!.opensAt.getTime()).toBe(startsAt.getTime() - 120 * 60_000);
  });
});
