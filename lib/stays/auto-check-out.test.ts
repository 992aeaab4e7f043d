import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { getGuestPage } from '../guests/get-guest-page';
import { expireDueKeys } from '../keys/expire-keys';
import { checkOutEndedStays } from './auto-check-out';
import { checkOutReservation } from './check-out';
import { completeCheckIn } from './complete-check-in';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

/** A checked-in stay whose end was a minute ago (its key still valid until the booked end: the job expires it). */
async function endedStay(tenantId: string, roomId: string) {
  const booked = await bookRoom({ tenantId, roomId, startsInHours: -1, hours: 2 });
  const { key } = await completeCheckIn({ tenantId, reservationId: booked.reservationId, actor: TEST_ACTOR });
  await admin.query(`update reservations set ends_at = now() - interval '1 minute' where id = $1`, [
    booked.reservationId,
  ]);
  return { ...booked, keyId: key.id };
}

async function stateOf(reservationId: string) {
  const reservation = await admin.query<{ status: string }>(`select status::text from reservations where id = $1`, [
    reservationId,
  ]);
  const keys = await admin.query<{ status: string; revoked_reason: string | null }>(
    `select status::text, revoked_reason from access_keys where reservation_id = $1 and kind = 'guest' and status in ('pre_issued', 'active')`,
    [reservationId],
  );
  const audits = await admin.query<{ actor_type: string; actor_id: string | null; reason: string | null }>(
    `select actor_type::text, actor_id, reason from audit_events
      where subject_id = $1 and action = 'checkout.completed' order by occurred_at`,
    [reservationId],
  );
  return { status: reservation.rows[0]!.status, liveKeys: keys.rows.length, audits: audits.rows };
}

describe('the automatic check-out', () => {
  it('checks out a checked-in stay a minute past its end: reason stay_ended, the system as actor, keys expired', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const stay = await endedStay(tenantId, roomIds[0]!);
    const live = await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: -1, hours: 3 });
    await completeCheckIn({ tenantId, reservationId: live.reservationId, actor: TEST_ACTOR });

    expect(await checkOutEndedStays()).toBeGreaterThanOrEqual(1);
    expect(await stateOf(stay.reservationId)).toEqual({
      status: 'checked_out',
      liveKeys: 0,
      audits: [{ actor_type: 'system', actor_id: null, reason: 'stay_ended' }],
    });
    const key = await admin.query(
      `select k.status::text, a.reason from access_keys k
         join audit_events a on a.subject_id = k.id and a.action = 'key.expired' where k.id = $1`,
      [stay.keyId],
    );
    expect(key.rows).toEqual([{ status: 'expired', reason: 'stay_ended' }]);
    const checkIn = await admin.query(
      `select checked_out_at is not null as out from check_ins where reservation_id = $1`,
      [stay.reservationId],
    );
    expect(checkIn.rows).toEqual([{ out: true }]);
    // The stay still running is left alone.
    expect((await stateOf(live.reservationId)).status).toBe('checked_in');

    // Its link now shows the thank-you page.
    const page = await getGuestPage(stay.token, '203.0.113.7');
    expect(page).toMatchObject({ kind: 'thanks' });

    // A second run finds nothing of this tenant's to do.
    await checkOutEndedStays();
    expect((await stateOf(stay.reservationId)).audits).toHaveLength(1);
  });

  it('checks each stay out once when two workers run it at the same time', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 6 });
    const stays = [];
    for (const roomId of roomIds) stays.push(await endedStay(tenantId, roomId));

    // Small batches so that the two runs really interleave over the tenant's stays.
    await Promise.all([checkOutEndedStays(2), checkOutEndedStays(2), checkOutEndedStays(1)]);
    for (const stay of stays) {
      const state = await stateOf(stay.reservationId);
      expect(state).toEqual({
        status: 'checked_out',
        liveKeys: 0,
        audits: [{ actor_type: 'system', actor_id: null, reason: 'stay_ended' }],
      });
    }
    const expired = await admin.query<{ n: number }>(
      `select count(*)::int as n from audit_events where tenant_id = $1 and action = 'key.expired'`,
      [tenantId],
    );
    expect(expired.rows[0]!.n).toBe(stays.length);
  });

  it('racing a desk check-out of the same stay: checked out once, one audit row', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 4 });
    for (const [i, roomId] of roomIds.entries()) {
      const stay = await endedStay(tenantId, roomId);
      const desk = () =>
        checkOutReservation({
          tenantId,
          reservationId: stay.reservationId,
          actor: { type: 'user', id: null, label: 'desk' },
        });
      // Each order of start, to let either writer win.
      await Promise.all(i % 2 === 0 ? [desk(), checkOutEndedStays()] : [checkOutEndedStays(), desk()]);
      const state = await stateOf(stay.reservationId);
      expect(state.status).toBe('checked_out');
      expect(state.liveKeys).toBe(0);
      expect(state.audits).toHaveLength(1);
    }
  });

  it('skips a stay a desk check-out holds, and the desk’s check-out is then the only one', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const stay = await endedStay(tenantId, roomIds[0]!);
    // The desk's check-out has locked the stay and not committed yet when the job runs.
    const deskTx = await adminClient();
    try {
      await deskTx.query('begin');
      await deskTx.query(`select check_out_reservation($1, $2, 'user', null, 'desk')`, [tenantId, stay.reservationId]);
      await checkOutEndedStays();
      await deskTx.query('commit');
    } finally {
      await deskTx.end();
    }
    await checkOutEndedStays();
    expect(await stateOf(stay.reservationId)).toEqual({
      status: 'checked_out',
      liveKeys: 0,
      audits: [{ actor_type: 'user', actor_id: null, reason: null }],
    });
  });

  it('leaves a stay never checked in (a no-show) confirmed; its pre-issued key still expires at its end', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1, hours: 2 });
    await admin.query(`update reservations set ends_at = now() - interval '1 minute' where id = $1`, [reservationId]);
    await admin.query(`update access_keys set expires_at = now() - interval '1 minute' where reservation_id = $1`, [
      reservationId,
    ]);

    await checkOutEndedStays();
    expect((await stateOf(reservationId)).status).toBe('confirmed');
    await expireDueKeys();
    expect(await stateOf(reservationId)).toEqual({ status: 'confirmed', liveKeys: 0, audits: [] });
  });
});
