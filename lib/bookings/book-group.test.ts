import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetStripeClientForTests } from '../payments/stripe-client';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { startStripeStub } from '../../tooling/testing/stripe-stub';
import { bookGroup } from './book-group';
import { cancelReservation } from './cancel-reservation';

const at = (hours: number) => new Date(Date.now() + hours * 3_600_000);
let stub: Awaited<ReturnType<typeof startStripeStub>>;

beforeAll(async () => {
  stub = await startStripeStub();
});
afterAll(async () => {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_API_BASE;
  resetStripeClientForTests();
  await stub.close();
});

describe('group booking', () => {
  it('holds every room with snapshots, a guest link and a pre-issued key each', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 3 });
    // Every round trip to PostgreSQL, whichever pool or client sends it: the hourly rules, the hold, the views.
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    const group = await bookGroup({
      tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'Mika Sato', email: 'mika@example.com' },
      reservations: [...roomIds].reverse().map((roomId) => ({ roomId, startsAt: at(24), endsAt: at(72) })),
    });
    const trips = sent.mock.calls.length;
    sent.mockRestore();
    expect(trips).toBe(3);
    expect(group).toMatchObject({ status: 'unpaid', paymentIntentId: null });
    // In the order they were asked for.
    expect(group.reservations.map((r) => r.roomLabel)).toEqual(['103', '102', '101']);
    expect(group.reservations[2]).toMatchObject({
      bookingGroupId: group.id,
      roomLabel: '101',
      status: 'confirmed',
      paid: false,
      source: 'api',
      externalRef: null,
      guest: { name: 'Mika Sato' },
      guestDisplay: 'Mika Sato',
      guestUrl: expect.stringMatching(/\/k\/[A-Za-z0-9_-]{43}$/),
    });
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select r.room_label_snapshot, r.guest_ref_snapshot, (select count(*)::int from access_keys k where k.reservation_id = r.id and k.status = 'pre_issued') as keys,
              (select count(*)::int from guest_links l where l.reservation_id = r.id) as links
       from reservations r where r.booking_group_id = $1 order by r.room_label_snapshot`,
      [group.id],
    );
    expect(rows).toEqual(
      ['101', '102', '103'].map((label) => ({
        room_label_snapshot: label,
        guest_ref_snapshot: expect.stringMatching(/^guest_[0-9a-f]{12}$/),
        keys: 1,
        links: 1,
      })),
    );
    await admin.end();
  });

  it('stores a guest’s text exactly as written (quotes, backslashes, SQL), and refuses a NUL holding nothing', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const name = `O'Brien \\ "Ōno" '); drop table guests; --`;
    const group = await bookGroup({
      tenantId,
      actor: { type: 'user', id: null, label: `Desk's \\ label` },
      source: 'api',
      guest: { name, email: `o'brien@example.com`, phone: null },
      reservations: [{ roomId: roomIds[0]!, startsAt: at(24), endsAt: at(48) }],
    });
    expect(group.reservations[0]!.guest).toMatchObject({ name });
    await expect(
      bookGroup({
        tenantId,
        actor: TEST_ACTOR,
        source: 'api',
        guest: { name: 'Nul\u0000Name' },
        reservations: [{ roomId: roomIds[0]!, startsAt: at(96), endsAt: at(120) }],
      }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select (select array_agg(array[name, email]) from guests where tenant_id = $1) as guests,
              (select array_agg(distinct actor_label) from audit_events where tenant_id = $1 and action = 'reservation.created') as actors`,
      [tenantId],
    );
    expect(rows[0]).toEqual({ guests: [[name, `o'brien@example.com`]], actors: [`Desk's \\ label`] });
    await admin.end();
  });

  it('holds nothing when any room is taken, and names every room that failed', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 3 });
    await bookRoom({ tenantId, roomId: roomIds[1]!, startsInHours: 30, hours: 10 });
    await bookRoom({ tenantId, roomId: roomIds[2]!, startsInHours: 70, hours: 10 });
    const admin = await adminClient();
    const count = async () =>
      (
        await admin.query(
          `select (select count(*)::int from reservations where tenant_id = $1) as r,
      (select count(*)::int from guests where tenant_id = $1) as g, (select count(*)::int from booking_groups where tenant_id = $1) as b`,
          [tenantId],
        )
      ).rows[0];
    const before = await count();
    const attempt = bookGroup({
      tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'Group' },
      reservations: roomIds.map((roomId) => ({ roomId, startsAt: at(24), endsAt: at(72) })),
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'room_unavailable',
      details: { roomIds: [roomIds[1], roomIds[2]].sort() },
    });
    expect(await count()).toEqual(before);
    await admin.end();
  });

  it('lets exactly one of many concurrent groups have an overlapping room', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        bookGroup({
          tenantId,
          actor: TEST_ACTOR,
          source: 'api',
          guest: { name: `Racer ${i}` },
          reservations: [
            { roomId: roomIds[i % 2]!, startsAt: at(100 + i), endsAt: at(130) },
            { roomId: roomIds[(i + 1) % 2]!, startsAt: at(100), endsAt: at(120) },
          ],
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const failed of attempts.filter((a) => a.status === 'rejected'))
      expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: 'room_unavailable' });
    const admin = await adminClient();
    const { rows } = await admin.query(`select count(*)::int as n from reservations where tenant_id = $1`, [tenantId]);
    expect(rows[0].n).toBe(2);
    await admin.end();
  });

  it('creates one PaymentIntent per group after the hold (idempotency key, metadata, Connect account, nightly rates)', async () => {
    process.env.STRIPE_SECRET_KEY = 'sk_test_stub';
    process.env.STRIPE_API_BASE = stub.url;
    resetStripeClientForTests();
    try {
      const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
      const admin = await adminClient();
      await admin.query(`update tenants set stripe_account_id = 'acct_stubTenant' where id = $1`, [tenantId]);
      await admin.query(`update rooms set rate_cents = 12000, currency = 'jpy' where tenant_id = $1`, [tenantId]);
      const group = await bookGroup({
        tenantId,
        actor: TEST_ACTOR,
        source: 'api',
        guest: { name: 'Payer' },
        reservations: [
          { roomId: roomIds[0]!, startsAt: at(24), endsAt: at(72) },
          { roomId: roomIds[1]!, startsAt: at(24), endsAt: at(48) },
        ],
      });
      expect(group.paymentIntentId).toMatch(/^pi_stub/);
      const request = stub.requests.find((r) => r.form['metadata[bookingGroupId]'] === group.id)!;
      expect(request).toMatchObject({
        path: '/v1/payment_intents',
        idempotencyKey: `booking-group:${group.id}`,
        stripeAccount: 'acct_stubTenant',
      });
      expect(request.form).toMatchObject({
        amount: String(12000 * 2 + 12000 * 1),
        currency: 'jpy',
        'metadata[tenantId]': tenantId,
      });
      const { rows } = await admin.query(`select payment_intent_id, amount_cents from booking_groups where id = $1`, [
        group.id,
      ]);
      expect(rows[0]).toEqual({ payment_intent_id: group.paymentIntentId, amount_cents: 36000 });
      await admin.end();
    } finally {
      delete process.env.STRIPE_SECRET_KEY;
      delete process.env.STRIPE_API_BASE;
      resetStripeClientForTests();
    }
  });

  it('attaches a caller’s PaymentIntent to one group of the tenant only (payment_intent_in_use), holding nothing the second time', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const intent = `pi_attach${Date.now()}`;
    const first = await bookGroup({
      tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'A' },
      paymentIntentId: intent,
      reservations: [{ roomId: roomIds[0]!, startsAt: at(10), endsAt: at(20) }],
    });
    expect(first.paymentIntentId).toBe(intent);
    await expect(
      bookGroup({
        tenantId,
        actor: TEST_ACTOR,
        source: 'api',
        guest: { name: 'B' },
        paymentIntentId: intent,
        reservations: [{ roomId: roomIds[1]!, startsAt: at(10), endsAt: at(20) }],
      }),
    ).rejects.toMatchObject({ code: 'payment_intent_in_use' });
    const admin = await adminClient();
    const { rows } = await admin.query(`select count(*)::int as n from reservations where room_id = $1`, [roomIds[1]]);
    expect(rows[0].n).toBe(0);
    await admin.end();
  });

  it('frees the room and revokes the keys when a reservation is cancelled', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 5, hours: 10 });
    await cancelReservation({ tenantId, reservationId, reason: 'guest asked', actor: TEST_ACTOR });
    await cancelReservation({ tenantId, reservationId, reason: 'twice', actor: TEST_ACTOR });
    const admin = await adminClient();
    const { rows } = await admin.query(`select status, revoked_reason from access_keys where reservation_id = $1`, [
      reservationId,
    ]);
    expect(rows).toEqual([{ status: 'revoked', revoked_reason: 'reservation_cancelled' }]);
    const audit = await admin.query(
      `select action, reason from audit_events where subject_id = $1 and action = 'reservation.cancelled'`,
      [reservationId],
    );
    expect(audit.rows).toEqual([{ action: 'reservation.cancelled', reason: 'guest asked' }]);
    await admin.end();
    const again = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: 5, hours: 10 });
    expect(again.reservationId).toBeTruthy();
  });
});

describe('cancelling a booking group', () => {
  it('cancels every reservation, frees every room and revokes every key', async () => {
    const { cancelBookingGroup } = await import('./cancel-reservation');
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const group = await bookGroup({
      tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'Whole group' },
      reservations: roomIds.map((roomId) => ({ roomId, startsAt: at(200), endsAt: at(220) })),
    });
    expect(
      await cancelBookingGroup({ tenantId, bookingGroupId: group.id, reason: 'event cancelled', actor: TEST_ACTOR }),
    ).toEqual({ id: group.id, cancelled: 2 });
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select r.status, k.status as key_status, k.revoked_reason from reservations r join access_keys k on k.reservation_id = r.id where r.booking_group_id = $1`,
      [group.id],
    );
    expect(rows).toEqual([
      { status: 'cancelled', key_status: 'revoked', revoked_reason: 'reservation_cancelled' },
      { status: 'cancelled', key_status: 'revoked', revoked_reason: 'reservation_cancelled' },
    ]);
    await admin.end();
    const again = await bookGroup({
      tenantId,
      actor: TEST_ACTOR,
      source: 'api',
      guest: { name: 'Next' },
      reservations: roomIds.map((roomId) => ({ roomId, startsAt: at(200), endsAt: at(220) })),
    });
    expect(again.reservations).toHaveLength(2);
  });
});
