import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelReservation } from '../bookings/cancel-reservation';
import { bookGroup } from '../bookings/book-group';
import { issueNewStayKey, reissueKey } from '../keys/reissue-key';
import { revokeKey } from '../keys/revoke-key';
import { createStaffCode, listStaffCodes } from '../keys/staff-codes';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { changeReservationDates } from './change-dates';
import { checkOutReservation } from './check-out';
import { completeCheckIn } from './complete-check-in';
import { moveReservation } from './move-reservation';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const HOUR = 3_600_000;

async function keysOf(reservationId: string) {
  const { rows } = await admin.query(
    `select id, status, kind, room_id, pin, valid_from, expires_at, revoked_reason, check_in_id, replaces
       from access_keys where reservation_id = $1 order by created_at, id`,
    [reservationId],
  );
  return rows;
}

async function auditOf(subjectId: string, action: string) {
  const { rows } = await admin.query(
    `select action, reason, room_id, metadata from audit_events where subject_id = $1 and action = $2 order by occurred_at`,
    [subjectId, action],
  );
  return rows;
}

async function jobsFor(keyId: string) {
  const { rows } = await admin.query(
    `select t.identifier as task from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where j.payload->>'keyId' = $1 order by j.id`,
    [keyId],
  );
  return rows.map((r) => r.task as string);
}

/** Every row of one tenant in every tenant table, as one string: "nothing written" is this staying equal. */
async function snapshot(tenantId: string): Promise<string> {
  const { rows: tables } = await admin.query<{ relname: string }>(
    `select c.relname from pg_class c join pg_attribute a on a.attrelid = c.oid
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attname = 'tenant_id' order by 1`,
  );
  const parts: string[] = [];
  for (const { relname } of tables) {
    const { rows } = await admin.query(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from public.${admin.escapeIdentifier(relname)} t where tenant_id = $1`,
      [tenantId],
    );
    parts.push(`${relname}:${rows[0].h}`);
  }
  return parts.join('\n');
}

async function checkedIn(rooms = 3) {
  const t = await createBookableTenant({ rooms });
  const booked = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, guestName: 'Kenji Sato' });
  const checkIn = await completeCheckIn({
    tenantId: t.tenantId,
    reservationId: booked.reservationId,
    actor: TEST_ACTOR,
  });
  return { ...t, ...booked, checkIn };
}

describe('check-out', () => {
  it('ends the stay and its live key now, audited once; again answers the same and writes nothing', async () => {
    const s = await checkedIn();
    const out = await checkOutReservation({ tenantId: s.tenantId, reservationId: s.reservationId, actor: TEST_ACTOR });
    expect(out).toMatchObject({ id: s.reservationId, status: 'checked_out' });
    const keys = await keysOf(s.reservationId);
    expect(keys.find((k) => k.id === s.checkIn.key.id)).toMatchObject({
      status: 'revoked',
      revoked_reason: 'checked_out',
    });
    expect(keys.filter((k) => ['pre_issued', 'active'].includes(k.status))).toEqual([]);
    expect(await jobsFor(s.checkIn.key.id)).toContain('vendor_remove_key');
    const { rows } = await admin.query(`select checked_out_at from check_ins where reservation_id = $1`, [
      s.reservationId,
    ]);
    expect(rows[0].checked_out_at).toBeInstanceOf(Date);
    expect(await auditOf(s.reservationId, 'checkout.completed')).toHaveLength(1);

    const before = await snapshot(s.tenantId);
    const again = await checkOutReservation({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      actor: TEST_ACTOR,
    });
    expect(again).toEqual(out);
    expect(await snapshot(s.tenantId)).toBe(before);
  });

  it('refuses a stay never checked in (reservation_not_ready) and another tenant’s id (not_found), writing nothing', async () => {
    const t = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]! });
    const other = await checkedIn();
    const before = [await snapshot(t.tenantId), await snapshot(other.tenantId)];
    await expect(checkOutReservation({ tenantId: t.tenantId, reservationId, actor: TEST_ACTOR })).rejects.toMatchObject(
      {
        code: 'reservation_not_ready',
      },
    );
    await expect(
      checkOutReservation({ tenantId: t.tenantId, reservationId: other.reservationId, actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect([await snapshot(t.tenantId), await snapshot(other.tenantId)]).toEqual(before);
  });
});

describe('room move', () => {
  it('revokes the old room’s key (room_moved) and issues one in the same state with a new PIN on the new room', async () => {
    const t = await createBookableTenant({ rooms: 2 });
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 30 });
    const [old] = await keysOf(reservationId);
    const moved = await moveReservation({
      tenantId: t.tenantId,
      reservationId,
      roomId: t.roomIds[1]!,
      reason: 'noisy neighbours',
      actor: TEST_ACTOR,
    });
    expect(moved).toMatchObject({ roomId: t.roomIds[1], roomLabel: '102' });
    const keys = await keysOf(reservationId);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatchObject({
      id: old.id,
      status: 'revoked',
      revoked_reason: 'room_moved',
      room_id: t.roomIds[0],
    });
    expect(keys[1]).toMatchObject({ status: 'pre_issued', room_id: t.roomIds[1] });
    expect(keys[1].expires_at).toEqual(old.expires_at);
    expect(await jobsFor(old.id)).toEqual(['vendor_program_key', 'vendor_remove_key']);
    expect(await jobsFor(keys[1].id)).toEqual(['vendor_program_key']);
    const { rows: doors } = await admin.query(
      `select l.device_id from key_lock_codes c join locks l on l.id = c.lock_id where c.key_id = $1`,
      [keys[1].id],
    );
    expect(doors).toHaveLength(1);
    const audit = await auditOf(reservationId, 'reservation.moved');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ reason: 'noisy neighbours', room_id: t.roomIds[1] });
    expect(audit[0].metadata).toMatchObject({ fromRoomLabel: '101', toRoomLabel: '102', revokedKeyIds: [old.id] });

    // A retry (the stay is already there) answers the same and writes nothing.
    const before = await snapshot(t.tenantId);
    await moveReservation({
      tenantId: t.tenantId,
      reservationId,
      roomId: t.roomIds[1]!,
      reason: 'x',
      actor: TEST_ACTOR,
    });
    expect(await snapshot(t.tenantId)).toBe(before);
  });

  it('moves a checked-in stay with an active key', async () => {
    const s = await checkedIn();
    await moveReservation({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      roomId: s.roomIds[2]!,
      reason: 'leak',
      actor: TEST_ACTOR,
    });
    const live = (await keysOf(s.reservationId)).filter((k) => k.status === 'active');
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ room_id: s.roomIds[2], check_in_id: s.checkIn.checkInId });
  });

  it('moves a stay that began before now (checked in on time): its new key works from the start', async () => {
    const t = await createBookableTenant({ rooms: 2 });
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: -0.5 });
    await completeCheckIn({ tenantId: t.tenantId, reservationId, actor: TEST_ACTOR });
    await moveReservation({
      tenantId: t.tenantId,
      reservationId,
      roomId: t.roomIds[1]!,
      reason: 'leak',
      actor: TEST_ACTOR,
    });
    const live = (await keysOf(reservationId)).filter((k) => k.status === 'active');
    const { rows } = await admin.query(`select starts_at from reservations where id = $1`, [reservationId]);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ room_id: t.roomIds[1], valid_from: rows[0].starts_at });
  });

  it('refuses a taken room (23P01 → room_unavailable), an archived room and another tenant’s room, writing nothing', async () => {
    const t = await createBookableTenant({ rooms: 3 });
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 30 });
    await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[1]!, startsInHours: 40 });
    await admin.query(`update rooms set archived_at = now() where id = $1`, [t.roomIds[2]]);
    const other = await createBookableTenant();
    const before = await snapshot(t.tenantId);
    const move = (roomId: string) =>
      moveReservation({ tenantId: t.tenantId, reservationId, roomId, reason: 'probe', actor: TEST_ACTOR });
    await expect(move(t.roomIds[1]!)).rejects.toMatchObject({ code: 'room_unavailable' });
    await expect(move(t.roomIds[2]!)).rejects.toMatchObject({
      code: 'room_unavailable',
      message: expect.stringMatching(/archived/),
    });
    await expect(move(other.roomIds[0]!)).rejects.toMatchObject({ code: 'not_found' });
    expect(await snapshot(t.tenantId)).toBe(before);
  });

  it('two moves at once: each waits for the other, one key lives, one audit row per real move', async () => {
    const t = await createBookableTenant({ rooms: 3 });
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 30 });
    const results = await Promise.allSettled(
      [1, 2].map((i) =>
        moveReservation({
          tenantId: t.tenantId,
          reservationId,
          roomId: t.roomIds[i]!,
          reason: `move ${i}`,
          actor: TEST_ACTOR,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const keys = await keysOf(reservationId);
    const live = keys.filter((k) => k.status === 'pre_issued');
    const { rows } = await admin.query(`select room_id from reservations where id = $1`, [reservationId]);
    expect(live).toHaveLength(1);
    expect(live[0].room_id).toBe(rows[0].room_id);
    expect(await auditOf(reservationId, 'reservation.moved')).toHaveLength(2);

    // The same move twice at once: one real move, one audit row.
    const same = await Promise.all(
      [0, 0].map(() =>
        moveReservation({
          tenantId: t.tenantId,
          reservationId,
          roomId: t.roomIds[0]!,
          reason: 'back',
          actor: TEST_ACTOR,
        }),
      ),
    );
    expect(same.map((r) => r.roomId)).toEqual([t.roomIds[0], t.roomIds[0]]);
    expect(await auditOf(reservationId, 'reservation.moved')).toHaveLength(3);
    expect((await keysOf(reservationId)).filter((k) => k.status === 'pre_issued')).toHaveLength(1);
  });

  it('a move racing check-out: either order leaves no live key and a consistent stay', async () => {
    const s = await checkedIn();
    const [move, out] = await Promise.allSettled([
      moveReservation({
        tenantId: s.tenantId,
        reservationId: s.reservationId,
        roomId: s.roomIds[1]!,
        reason: 'race',
        actor: TEST_ACTOR,
      }),
      checkOutReservation({ tenantId: s.tenantId, reservationId: s.reservationId, actor: TEST_ACTOR }),
    ]);
    expect(out.status).toBe('fulfilled');
    if (move.status === 'rejected')
      expect(move.reason).toMatchObject({ code: 'illegal_transition', details: { from: 'checked_out' } });
    const keys = await keysOf(s.reservationId);
    expect(keys.filter((k) => ['pre_issued', 'active'].includes(k.status))).toEqual([]);
    expect(await auditOf(s.reservationId, 'checkout.completed')).toHaveLength(1);
  });
});

describe('new dates', () => {
  it('extends the stay: the live key’s window follows, audited, every door flagged and a job to re-program it', async () => {
    const s = await checkedIn();
    const { rows } = await admin.query(`select starts_at, ends_at from reservations where id = $1`, [s.reservationId]);
    const endsAt = new Date(rows[0].ends_at.getTime() + 24 * HOUR);
    const changed = await changeReservationDates({
      tenantId: s.tenantId,
      reservationId: s.reservationId,
      endsAt,
      actor: TEST_ACTOR,
    });
    expect(changed.endsAt).toBe(endsAt.toISOString());
    const [key] = (await keysOf(s.reservationId)).filter((k) => k.status === 'active');
    expect(key.id).toBe(s.checkIn.key.id);
    expect(key.expires_at).toEqual(endsAt);
    const { rows: doors } = await admin.query(`select rewindow from key_lock_codes where key_id = $1`, [key.id]);
    expect(doors.map((d) => d.rewindow)).toEqual([true]);
    expect(await jobsFor(key.id)).toContain('vendor_rewindow_key');
    expect(await auditOf(key.id, 'key.window_changed')).toHaveLength(1);
    const audit = await auditOf(s.reservationId, 'reservation.changed');
    expect(audit).toHaveLength(1);
    expect(new Date(audit[0].metadata.to.endsAt)).toEqual(endsAt);
    const { rows: links } = await admin.query(
      `select expires_at from guest_links where reservation_id = $1 and ended_at is null`,
      [s.reservationId],
    );
    expect(links[0].expires_at).toEqual(new Date(endsAt.getTime() + 24 * HOUR));

    const before = await snapshot(s.tenantId);
    await changeReservationDates({ tenantId: s.tenantId, reservationId: s.reservationId, endsAt, actor: TEST_ACTOR });
    expect(await snapshot(s.tenantId)).toBe(before);
  });

  it('moves a pre-issued key’s start with the stay, but never into another guest’s stay', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    const first = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 30, hours: 24 });
    const second = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 60, hours: 24 });
    const { rows } = await admin.query(`select starts_at from reservations where id = $1`, [second.reservationId]);
    // The facility's key lead is two hours: the second stay now starts right as the first ends (30 + 24 = 54 h).
    const startsAt = new Date(Date.now() + 54 * HOUR);
    expect(rows[0].starts_at.getTime()).toBeGreaterThan(startsAt.getTime());
    const { rows: ends } = await admin.query(`select ends_at from reservations where id = $1`, [first.reservationId]);
    await changeReservationDates({
      tenantId: t.tenantId,
      reservationId: second.reservationId,
      startsAt: ends[0].ends_at,
      actor: TEST_ACTOR,
    });
    const [key] = (await keysOf(second.reservationId)).filter((k) => k.status === 'pre_issued');
    // Not starts minus two hours: the first guest still holds the room until its end.
    expect(key.valid_from).toEqual(ends[0].ends_at);
  });

  it('refuses a clash (room_unavailable), a cancelled stay (illegal_transition) and bad dates, writing nothing', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    const a = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 30, hours: 24 });
    await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 60, hours: 24 });
    const c = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 100, hours: 24 });
    await cancelReservation({ tenantId: t.tenantId, reservationId: c.reservationId, reason: 'x', actor: TEST_ACTOR });
    const before = await snapshot(t.tenantId);
    const change = (reservationId: string, dates: { startsAt?: Date; endsAt?: Date }) =>
      changeReservationDates({ tenantId: t.tenantId, reservationId, ...dates, actor: TEST_ACTOR });
    await expect(change(a.reservationId, { endsAt: new Date(Date.now() + 70 * HOUR) })).rejects.toMatchObject({
      code: 'room_unavailable',
    });
    await expect(change(c.reservationId, { endsAt: new Date(Date.now() + 130 * HOUR) })).rejects.toMatchObject({
      code: 'illegal_transition',
      details: { from: 'cancelled' },
    });
    await expect(change(a.reservationId, { endsAt: new Date(Date.now() + 20 * HOUR) })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await snapshot(t.tenantId)).toBe(before);
  });

  it('an extension racing another booking into the same room: exactly one wins', async () => {
    const t = await createBookableTenant({ rooms: 1 });
    const a = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 30, hours: 24 });
    const startsAt = new Date(Date.now() + 60 * HOUR);
    const [extend, book] = await Promise.allSettled([
      changeReservationDates({
        tenantId: t.tenantId,
        reservationId: a.reservationId,
        endsAt: new Date(Date.now() + 80 * HOUR),
        actor: TEST_ACTOR,
      }),
      bookGroup({
        tenantId: t.tenantId,
        actor: TEST_ACTOR,
        guest: { name: 'Other' },
        source: 'api',
        reservations: [{ roomId: t.roomIds[0]!, startsAt, endsAt: new Date(startsAt.getTime() + 24 * HOUR) }],
      }),
    ]);
    expect([extend.status, book.status].sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = [extend, book].find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'room_unavailable' });
    const { rows } = await admin.query(
      `select count(*)::int as n from reservations where tenant_id = $1 and status <> 'cancelled'`,
      [t.tenantId],
    );
    expect(rows[0].n).toBe(extend.status === 'fulfilled' ? 1 : 2);
  });
});

describe('re-issue', () => {
  it('a live key: a new PIN in the same state and window, the old one revoked (reissued), audited once; a retry answers the same', async () => {
    const s = await checkedIn();
    const old = s.checkIn.key;
    const fresh = await reissueKey({ tenantId: s.tenantId, keyId: old.id, reason: 'PIN disclosed', actor: TEST_ACTOR });
    expect(fresh).toMatchObject({ status: 'active', validFrom: old.validFrom, expiresAt: old.expiresAt });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.pin).not.toBe(old.pin);
    const keys = await keysOf(s.reservationId);
    expect(keys.find((k) => k.id === old.id)).toMatchObject({ status: 'revoked', revoked_reason: 'reissued' });
    expect(keys.find((k) => k.id === fresh.id)).toMatchObject({ replaces: old.id });
    const audit = await auditOf(fresh.id, 'key.reissued');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      reason: 'PIN disclosed',
      metadata: { reservationId: s.reservationId, replaces: old.id },
    });

    const before = await snapshot(s.tenantId);
    const again = await Promise.all(
      [1, 2].map(() => reissueKey({ tenantId: s.tenantId, keyId: old.id, reason: 'again', actor: TEST_ACTOR })),
    );
    expect(again.map((k) => k.id)).toEqual([fresh.id, fresh.id]);
    expect(await snapshot(s.tenantId)).toBe(before);
  });

  it('a revoked key is no dead end while the stay runs and has no live key; otherwise illegal_transition', async () => {
    const s = await checkedIn();
    await revokeKey({ tenantId: s.tenantId, keyId: s.checkIn.key.id, reason: 'lost phone', actor: TEST_ACTOR });
    const fresh = await reissueKey({
      tenantId: s.tenantId,
      keyId: s.checkIn.key.id,
      reason: 'new phone',
      actor: TEST_ACTOR,
    });
    expect(fresh).toMatchObject({ status: 'active', kind: 'guest' });
    // The superseded pre-issued key: the stay has a live key now.
    const [preIssued] = (await keysOf(s.reservationId)).filter((k) => k.revoked_reason === 'superseded_by_checkin');
    await expect(
      reissueKey({ tenantId: s.tenantId, keyId: preIssued.id, reason: 'x', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'illegal_transition' });
    // The desk's "Issue a new key" on a stay with a live key answers that key.
    expect(
      (await issueNewStayKey({ tenantId: s.tenantId, reservationId: s.reservationId, reason: 'x', actor: TEST_ACTOR }))
        .id,
    ).toBe(fresh.id);
    await checkOutReservation({ tenantId: s.tenantId, reservationId: s.reservationId, actor: TEST_ACTOR });
    await expect(
      reissueKey({ tenantId: s.tenantId, keyId: fresh.id, reason: 'x', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'illegal_transition' });
    const other = await createBookableTenant();
    await expect(
      reissueKey({ tenantId: other.tenantId, keyId: fresh.id, reason: 'x', actor: TEST_ACTOR }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('issues a new key for a confirmed stay whose keys all ended', async () => {
    const t = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId: t.tenantId, roomId: t.roomIds[0]!, startsInHours: 30 });
    const [old] = await keysOf(reservationId);
    await revokeKey({ tenantId: t.tenantId, keyId: old.id, reason: 'disclosed', actor: TEST_ACTOR });
    const fresh = await issueNewStayKey({ tenantId: t.tenantId, reservationId, reason: 'new key', actor: TEST_ACTOR });
    expect(fresh).toMatchObject({ status: 'pre_issued', validFrom: old.valid_from.toISOString() });
    expect(await auditOf(fresh.id, 'key.reissued')).toHaveLength(1);
  });
});

describe('staff codes', () => {
  it('a code for a room and a window: kind staff, a PIN unlike the guest’s, on the room’s doors, audited, ended like any key', async () => {
    const s = await checkedIn(1);
    const startsAt = new Date(Date.now() + HOUR);
    const code = await createStaffCode({
      tenantId: s.tenantId,
      roomId: s.roomIds[0]!,
      label: 'Turn-down',
      purpose: 'housekeeping',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 2 * HOUR),
      actor: { type: 'user', id: '00000000-0000-4000-8000-000000000001', label: 'Aiko (desk)' },
    });
    expect(code).toMatchObject({
      kind: 'staff',
      status: 'active',
      label: 'Turn-down',
      purpose: 'housekeeping',
      issuedBy: 'Aiko (desk)',
    });
    expect(code.pin).not.toBe(s.checkIn.key.pin);
    const { rows: doors } = await admin.query(`select count(*)::int as n from key_lock_codes where key_id = $1`, [
      code.id,
    ]);
    expect(doors[0].n).toBe(1);
    expect(await jobsFor(code.id)).toEqual(['vendor_program_key']);
    expect(await auditOf(code.id, 'staff_code.created')).toHaveLength(1);
    expect((await listStaffCodes({ tenantId: s.tenantId, roomId: s.roomIds[0]! })).map((c) => c.id)).toEqual([code.id]);

    const revoked = await revokeKey({ tenantId: s.tenantId, keyId: code.id, reason: 'done early', actor: TEST_ACTOR });
    expect(revoked).toMatchObject({ status: 'revoked', pin: null });
    expect(await jobsFor(code.id)).toEqual(['vendor_program_key', 'vendor_remove_key']);
  });

  it('refuses another tenant’s room or user (not_found) and writes nothing', async () => {
    const t = await createBookableTenant();
    const other = await createBookableTenant();
    const before = await snapshot(t.tenantId);
    const input = {
      label: 'Fix tap',
      purpose: 'maintenance' as const,
      startsAt: new Date(),
      endsAt: new Date(Date.now() + HOUR),
      actor: TEST_ACTOR,
    };
    await expect(createStaffCode({ ...input, tenantId: t.tenantId, roomId: other.roomIds[0]! })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      createStaffCode({
        ...input,
        tenantId: t.tenantId,
        roomId: t.roomIds[0]!,
        userId: '00000000-0000-4000-8000-00000000dead',
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(listStaffCodes({ tenantId: t.tenantId, roomId: other.roomIds[0]! })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await snapshot(t.tenantId)).toBe(before);
  });
});
