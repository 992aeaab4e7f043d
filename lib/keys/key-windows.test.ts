import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeReservationDates } from '../stays/change-dates';
import { completeCheckIn } from '../stays/complete-check-in';
import { moveReservation } from '../stays/move-reservation';
import { adminClient, bookWindow, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';

// Issue 28, item 4: no two live guest keys of different stays of one room overlap in time, on
// every path that writes a key window or a stay, in either booking order — PostgreSQL refuses it.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const HOUR = 3_600_000;
const BASE = Date.now();
const at = (hours: number) => new Date(BASE + hours * HOUR);

type KeyRow = { id: string; reservation_id: string; status: string; valid_from: Date; expires_at: Date };

async function liveGuestKeys(roomId: string): Promise<KeyRow[]> {
  const { rows } = await admin.query<KeyRow>(
    `select id, reservation_id, status, valid_from, expires_at from access_keys
      where room_id = $1 and kind in ('guest', 'backup') and status in ('pre_issued', 'active') order by valid_from`,
    [roomId],
  );
  return rows;
}

/** The property itself: for every pair of live guest keys of different stays of the room, no overlap. */
function expectNoOverlap(keys: KeyRow[]) {
  for (const a of keys)
    for (const b of keys) {
      if (a.id === b.id || a.reservation_id === b.reservation_id) continue;
      const overlap = a.valid_from < b.expires_at && b.valid_from < a.expires_at;
      expect(
        overlap,
        `keys ${a.id} [${a.valid_from.toISOString()}, ${a.expires_at.toISOString()}) and ${b.id} [${b.valid_from.toISOString()}, ${b.expires_at.toISOString()}) overlap`,
      ).toBe(false);
    }
}

async function reservationCount(tenantId: string): Promise<number> {
  const { rows } = await admin.query(`select count(*)::int as n from reservations where tenant_id = $1`, [tenantId]);
  return rows[0].n;
}

describe('a pre-issued key never starts inside the previous stay', () => {
  it('earlier stay booked first: the later stay’s key starts at the earlier stay’s end, not key_lead before its start', async () => {
    const t = await createBookableTenant();
    const room = t.roomIds[0]!;
    const boundary = at(25);
    const earlier = await bookWindow(t.tenantId, room, at(1), boundary);
    const later = await bookWindow(t.tenantId, room, boundary, at(49));
    const keys = await liveGuestKeys(room);
    expect(keys.map((k) => k.reservation_id).sort()).toEqual([earlier, later].sort());
    expectNoOverlap(keys);
    expect(keys.find((k) => k.reservation_id === later)!.valid_from.getTime()).toBe(boundary.getTime());
  });

  it('later stay booked first: booking the earlier stay moves the later key’s start to the earlier stay’s end', async () => {
    const t = await createBookableTenant();
    const room = t.roomIds[0]!;
    const laterStart = at(25);
    const later = await bookWindow(t.tenantId, room, laterStart, at(49));
    const before = (await liveGuestKeys(room))[0]!;
    expect(before.valid_from.getTime()).toBeLessThan(laterStart.getTime()); // key_lead before its start
    const earlier = await bookWindow(t.tenantId, room, at(1), laterStart);
    const keys = await liveGuestKeys(room);
    expectNoOverlap(keys);
    const laterKey = keys.find((k) => k.reservation_id === later)!;
    expect(laterKey.id).toBe(before.id);
    expect(laterKey.valid_from.getTime()).toBe(laterStart.getTime());
    expect(keys.some((k) => k.reservation_id === earlier)).toBe(true);
    // The lock learns the later start, and the change is on the record.
    const { rows: jobs } = await admin.query(
      `select 1 from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'vendor_rewindow_key' and j.payload->>'keyId' = $1`,
      [laterKey.id],
    );
    expect(jobs.length).toBeGreaterThan(0);
    const { rows: audit } = await admin.query(
      `select 1 from audit_events where subject_id = $1 and action = 'key.window_changed'`,
      [laterKey.id],
    );
    expect(audit).toHaveLength(1);
  });

  it('a stay extended into the next stay’s key lead moves that key’s start to the new end', async () => {
    const t = await createBookableTenant();
    const room = t.roomIds[0]!;
    const next = await bookWindow(t.tenantId, room, at(30), at(54));
    const first = await bookWindow(t.tenantId, room, at(2), at(26));
    await changeReservationDates({ tenantId: t.tenantId, reservationId: first, endsAt: at(29), actor: TEST_ACTOR });
    let keys = await liveGuestKeys(room);
    expectNoOverlap(keys);
    expect(keys.find((k) => k.reservation_id === next)!.valid_from.getTime()).toBe(at(29).getTime());
    await changeReservationDates({ tenantId: t.tenantId, reservationId: first, endsAt: at(30), actor: TEST_ACTOR });
    keys = await liveGuestKeys(room);
    expectNoOverlap(keys);
    expect(keys.find((k) => k.reservation_id === next)!.valid_from.getTime()).toBe(at(30).getTime());
  });

  it('a stay moved into a room before another stay’s key lead moves that key’s start to the moved stay’s end', async () => {
    const t = await createBookableTenant({ rooms: 2 });
    const [roomA, roomB] = t.roomIds as [string, string];
    const later = await bookWindow(t.tenantId, roomA, at(30), at(54));
    const mover = await bookWindow(t.tenantId, roomB, at(5), at(29));
    await moveReservation({
      tenantId: t.tenantId,
      reservationId: mover,
      roomId: roomA,
      reason: 'upgrade',
      actor: TEST_ACTOR,
    });
    const keys = await liveGuestKeys(roomA);
    expectNoOverlap(keys);
    expect(keys.find((k) => k.reservation_id === later)!.valid_from.getTime()).toBe(at(29).getTime());
    expect(keys.some((k) => k.reservation_id === mover)).toBe(true);
  });
});

describe('a check-in’s key never opens the door inside another stay', () => {
  it('a check-in inside the early window while the previous stay still runs: the key starts at that stay’s end', async () => {
    const t = await createBookableTenant({ earlyCheckInMinutes: 120 });
    const room = t.roomIds[0]!;
    const previous = await bookWindow(t.tenantId, room, at(-2), at(0.5));
    await completeCheckIn({ tenantId: t.tenantId, reservationId: previous, actor: TEST_ACTOR });
    const next = await bookWindow(t.tenantId, room, at(0.5), at(24));
    const { key } = await completeCheckIn({ tenantId: t.tenantId, reservationId: next, actor: TEST_ACTOR });
    expect(new Date(key.validFrom).getTime()).toBeGreaterThanOrEqual(at(0.5).getTime() - 1000);
    expectNoOverlap(await liveGuestKeys(room));
  });

  it('a booking into the time an early check-in’s key already covers is refused (room_unavailable), holding nothing', async () => {
    const t = await createBookableTenant({ earlyCheckInMinutes: 0 });
    const room = t.roomIds[0]!;
    const stay = await bookWindow(t.tenantId, room, at(6), at(30));
    await completeCheckIn({ tenantId: t.tenantId, reservationId: stay, actor: TEST_ACTOR, early: true });
    const count = await reservationCount(t.tenantId);
    await expect(bookWindow(t.tenantId, room, at(1), at(3))).rejects.toMatchObject({ code: 'room_unavailable' });
    expect(await reservationCount(t.tenantId)).toBe(count);
    expectNoOverlap(await liveGuestKeys(room));
  });

  it('the early check-in and a booking of the gap at the same time: exactly one wins', async () => {
    for (let round = 0; round < 4; round++) {
      const t = await createBookableTenant({ earlyCheckInMinutes: 0 });
      const room = t.roomIds[0]!;
      const stay = await bookWindow(t.tenantId, room, at(6), at(30));
      const results = await Promise.allSettled([
        completeCheckIn({ tenantId: t.tenantId, reservationId: stay, actor: TEST_ACTOR, early: true }),
        bookWindow(t.tenantId, room, at(1), at(3)),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'room_unavailable' });
      expectNoOverlap(await liveGuestKeys(room));
    }
  });
});

describe('the database refuses overlapping keys of two stays, whoever writes them', () => {
  it('an insert of a key reaching into another stay of the room fails with 23P01', async () => {
    const t = await createBookableTenant();
    const room = t.roomIds[0]!;
    const first = await bookWindow(t.tenantId, room, at(1), at(25));
    const second = await bookWindow(t.tenantId, room, at(25), at(49));
    const { rows: keys } = await admin.query(
      `select id from access_keys where reservation_id = $1 and status = 'pre_issued'`,
      [second],
    );
    // Moving the second stay's key into the first stay, as any path might by mistake.
    await expect(
      admin.query(`update access_keys set valid_from = $2 where id = $1`, [keys[0].id, at(20)]),
    ).rejects.toMatchObject({ code: '23P01' });
    // A new key of the second stay over the first stay's nights (its pre-issued key ended first).
    await admin.query(`update access_keys set status = 'revoked', revoked_reason = 'test' where id = $1`, [keys[0].id]);
    await expect(
      admin.query(`select app_insert_key($1, $2, null, $3, 'pre_issued', $4, $5)`, [
        t.tenantId,
        second,
        room,
        at(10),
        at(49),
      ]),
    ).rejects.toMatchObject({ code: '23P01' });
    expectNoOverlap(await liveGuestKeys(room));
    expect(first).toBeTruthy();
  });
});
