import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelReservation } from '../bookings/cancel-reservation';
import { listUnpaidHolds } from '../bookings/unpaid-holds';
import { deleteGuest } from '../guests/delete-guest';
import { recordPayment } from '../payments/record-payment';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { callPublic, createBookingSite, trustTestClientAddresses } from '../../tooling/testing/booking-site';
import { bookingCode } from './booking-code';

// Issue 43.4: what one client address and one mailbox hold unpaid at a facility is bounded in PostgreSQL — at most 2
// live unpaid stays (online `held`, or `confirmed` at the property with nothing paid), counted under the confirm's
// own locks; one more → 429 too_many_holds and nothing held. Desk staff see the holds and release them.

let admin: pg.Client;
beforeAll(async () => {
  trustTestClientAddresses();
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

let seq = 0;
const tag = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;
const anAddress = () => `2001:db8:43:${randomBytes(2).toString('hex')}::${randomBytes(2).toString('hex')}`;

/** A booking request for one night of `date` at the site, from `address`; its id. */
async function ask(site: { slug: string; roomTypeId: string }, email: string, address: string, date = '2027-06-07') {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  const asked = await callPublic(
    'POST',
    '/api/public/facilities/{slug}/booking-requests',
    { slug: site.slug },
    {
      body: {
        roomTypeId: site.roomTypeId,
        checkIn: date,
        checkOut: next.toISOString().slice(0, 10),
        guest: { name: 'Holder', email },
        acceptTerms: true,
      },
      address,
    },
  );
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  return asked.body.data.id as string;
}

const confirm = (id: string, address: string) =>
  callPublic('POST', '/api/public/booking-requests/{id}/confirm', { id }, { body: { code: bookingCode(id) }, address });

async function liveStays(tenantId: string): Promise<number> {
  const { rows } = await admin.query(
    `select count(*)::int as n from reservations where tenant_id = $1 and status <> 'cancelled'`,
    [tenantId],
  );
  return rows[0].n;
}

describe('unpaid holds per client address and per mailbox (issue 43.4)', () => {
  it('one address holds at most 2 unpaid stays of a facility: the third confirm is 429 and holds nothing', async () => {
    const site = await createBookingSite(admin, { rooms: 4, payment: 'at_property' });
    const address = anAddress();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await ask(site, `guest-${i}-${tag()}@example.com`, address));
    expect((await confirm(ids[0]!, address)).status).toBe(201);
    expect((await confirm(ids[1]!, address)).status).toBe(201);
    const third = await confirm(ids[2]!, address);
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('too_many_holds');
    expect(await liveStays(site.tenantId)).toBe(2);
    const { rows } = await admin.query(`select status::text from booking_requests where id = $1`, [ids[2]]);
    expect(rows).toEqual([{ status: 'awaiting_code' }]);
    // Another person's address books the last rooms; the same address at another facility is not counted here.
    expect((await confirm(ids[2]!, anAddress())).status).toBe(201);
    const other = await createBookingSite(admin, { rooms: 1, payment: 'at_property' });
    expect((await confirm(await ask(other, `elsewhere-${tag()}@example.com`, address), address)).status).toBe(201);
  });

  it('one mailbox is one, however its address is written: case, +tags and the dots Gmail ignores', async () => {
    const site = await createBookingSite(admin, { rooms: 4, payment: 'at_property' });
    const user = `holder.${tag()}`;
    const written = [
      `${user}+one@gmail.com`,
      `${user.replace('.', '')}@googlemail.com`,
      `${user.toUpperCase()}@Gmail.com`,
    ];
    const ids = [];
    for (const email of written) ids.push(await ask(site, email, anAddress()));
    expect((await confirm(ids[0]!, anAddress())).status).toBe(201);
    expect((await confirm(ids[1]!, anAddress())).status).toBe(201);
    expect((await confirm(ids[2]!, anAddress())).body.error).toMatchObject({ code: 'too_many_holds' });
    expect(await liveStays(site.tenantId)).toBe(2);
  });

  it('counts only live unpaid stays: a paid one and a cancelled one free a place', async () => {
    const site = await createBookingSite(admin, { rooms: 4, payment: 'at_property' });
    const address = anAddress();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await ask(site, `free-${i}-${tag()}@example.com`, address));
    const first = await confirm(ids[0]!, address);
    const second = await confirm(ids[1]!, address);
    expect((await confirm(ids[2]!, address)).status).toBe(429);
    // Paid at the property: no longer a hold.
    await recordPayment({
      tenantId: site.tenantId,
      reservationId: first.body.data.reservationId,
      amountCents: 12000,
      method: 'cash',
      actor: TEST_ACTOR,
    });
    expect((await confirm(ids[2]!, address)).status).toBe(201);
    expect((await confirm(ids[3]!, address)).status).toBe(429);
    // Cancelled by the desk: the place is free again.
    await cancelReservation({
      tenantId: site.tenantId,
      reservationId: second.body.data.reservationId,
      reason: 'test',
      actor: TEST_ACTOR,
    });
    expect((await confirm(ids[3]!, address)).status).toBe(201);
    expect((await confirm(ids[4]!, address)).status).toBe(429);
  });

  it('lets exactly 2 of 6 concurrent confirms from one address hold, every time', async () => {
    for (let round = 0; round < 3; round++) {
      const site = await createBookingSite(admin, { rooms: 6, payment: 'at_property' });
      const address = anAddress();
      const ids = [];
      for (let i = 0; i < 6; i++) ids.push(await ask(site, `race-${i}-${tag()}@example.com`, address));
      const answers = await Promise.all(ids.map((id) => confirm(id, address)));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
      expect(await liveStays(site.tenantId)).toBe(2);
    }
  });

  it('shows the desk its holds with who holds how many, releases one, and forgets the keys with the guest', async () => {
    const site = await createBookingSite(admin, { rooms: 3, payment: 'at_property' });
    const address = anAddress();
    const email = `listed-${tag()}@example.com`;
    const first = await confirm(await ask(site, email, address, '2027-08-01'), address);
    await confirm(await ask(site, `other-${tag()}@example.com`, address, '2027-08-02'), address);
    const holds = await listUnpaidHolds({ tenantId: site.tenantId });
    expect(holds).toHaveLength(2);
    expect(holds.map((h) => [h.status, h.fromOneAddress, h.fromOneMailbox])).toEqual([
      ['confirmed', 2, 1],
      ['confirmed', 2, 1],
    ]);
    expect(holds[0]!.reservationId).toBe(first.body.data.reservationId);
    // Released from the desk (the stay cancelled): gone from the list.
    await cancelReservation({
      tenantId: site.tenantId,
      reservationId: first.body.data.reservationId,
      reason: 'Unpaid hold released by staff',
      actor: TEST_ACTOR,
    });
    expect((await listUnpaidHolds({ tenantId: site.tenantId })).map((h) => h.fromOneAddress)).toEqual([1]);
    // Deleting the guest clears the keys their request kept.
    const { rows } = await admin.query(`select r.guest_id from reservations r where r.id = $1`, [
      first.body.data.reservationId,
    ]);
    await deleteGuest({ tenantId: site.tenantId, guestId: rows[0].guest_id, actor: TEST_ACTOR });
    const { rows: keys } = await admin.query(
      `select mailbox_key, hold_address_key from booking_requests where reservation_id = $1`,
      [first.body.data.reservationId],
    );
    expect(keys).toEqual([{ mailbox_key: null, hold_address_key: null }]);
  });
});
