import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHandler, type RouterMethod } from '../api/router';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address';
import { bookGroup } from '../bookings/book-group';
import { zonedDateTime } from '../bookings/stay-window';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { callPublic, createBookingSite, trustTestClientAddresses } from '../../tooling/testing/booking-site';
import { countedBody, streamedRequest } from '../../tooling/testing/counted-body';
import { bookingCode } from './booking-code';

// The public booking API against a real database: availability, prices from the rate table, the emailed code
// before anything is held, and the hold of a room of the type decided by the database under concurrency.

let admin: pg.Client;
beforeAll(async () => {
  trustTestClientAddresses();
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const guest = (tag: string) => ({ name: 'Aiko Tanaka', email: `aiko-${tag}-${Date.now()}@example.com` });

async function request(slug: string, body: Record<string, unknown>, address?: string) {
  return callPublic('POST', '/api/public/facilities/{slug}/booking-requests', { slug }, { body, address });
}

async function confirm(id: string, code: string, address?: string) {
  return callPublic('POST', '/api/public/booking-requests/{id}/confirm', { id }, { body: { code }, address });
}

/** A POST whose body is a counted stream of `size` bytes: its answer and whether the handler read the body. */
async function postStreamed(path: string, params: Record<string, string>, size: number, address?: string) {
  const body = countedBody(size);
  const url = `http://test${path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')}`;
  const response = await routeHandler('POST' as RouterMethod, path)(
    streamedRequest(url, 'POST', body.stream, { [CLIENT_ADDRESS_HEADER]: address ?? '198.51.100.7' }),
    { params: Promise.resolve(params) },
  );
  const { error } = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: error?.code, bodyRead: body.bodyRead() };
}

function wrongCodeFor(id: string): string {
  return bookingCode(id) === '000000' ? '111111' : '000000';
}

describe('the public booking API', () => {
  it('answers 404 for an unknown or unpublished slug, and describes a published facility', async () => {
    const site = await createBookingSite(admin);
    expect((await callPublic('GET', '/api/public/facilities/{slug}', { slug: 'no-such-site' })).status).toBe(404);
    const shown = await callPublic('GET', '/api/public/facilities/{slug}', { slug: site.slug });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      unit: 'night',
      timeZone: 'Asia/Tokyo',
      currency: 'jpy',
      payment: 'none',
      checkInTime: '15:00',
      roomTypes: [{ id: site.roomTypeId, name: 'Standard Double', capacity: 2 }],
    });
    // Prices and the tenant stay on the server.
    expect(JSON.stringify(shown.body)).not.toMatch(/weekdayCents|tenantId|12000/);
    await admin.query(`update facilities set published_at = null where tenant_id = $1`, [site.tenantId]);
    for (const [method, path, params, body, query] of [
      ['GET', '/api/public/facilities/{slug}', { slug: site.slug }, undefined, ''],
      [
        'GET',
        '/api/public/facilities/{slug}/availability',
        { slug: site.slug },
        undefined,
        '?from=2027-02-01&to=2027-02-03',
      ],
      [
        'POST',
        '/api/public/facilities/{slug}/quotes',
        { slug: site.slug },
        { roomTypeId: site.roomTypeId, checkIn: '2027-02-01', checkOut: '2027-02-02' },
        '',
      ],
    ] as const) {
      const answer = await callPublic(method, path, params, { body, query });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
  });

  it('answers 404 for an unknown slug or booking request before reading the body', async () => {
    const site = await createBookingSite(admin);
    await admin.query(`update facilities set published_at = null where tenant_id = $1`, [site.tenantId]);
    for (const [path, params] of [
      ['/api/public/facilities/{slug}/quotes', { slug: 'no-such-site' }],
      ['/api/public/facilities/{slug}/booking-requests', { slug: 'no-such-site' }],
      ['/api/public/facilities/{slug}/quotes', { slug: site.slug }],
      ['/api/public/facilities/{slug}/booking-requests', { slug: site.slug }],
      ['/api/public/facilities/{slug}/quotes', { slug: 'Not A Slug!' }],
      ['/api/public/booking-requests/{id}/confirm', { id: randomUUID() }],
    ] as const) {
      const answer = await postStreamed(path, params, 200 * 1024);
      expect({ path, params, ...answer }).toEqual({ path, params, status: 404, code: 'not_found', bodyRead: false });
    }
  });

  it('shows each day as available, few (half or fewer free), full or past for the night that starts on it', async () => {
    const site = await createBookingSite(admin, { rooms: 4 });
    const night = (date: string, nights = 1) => {
      const end = new Date(`${date}T00:00:00Z`);
      end.setUTCDate(end.getUTCDate() + nights);
      return {
        startsAt: zonedDateTime(date, '15:00', 'Asia/Tokyo'),
        endsAt: zonedDateTime(end.toISOString().slice(0, 10), '10:00', 'Asia/Tokyo'),
      };
    };
    const book = (roomIds: string[], date: string, nights = 1) =>
      bookGroup({
        tenantId: site.tenantId,
        actor: TEST_ACTOR,
        guest: { name: 'Booked' },
        source: 'api',
        reservations: roomIds.map((roomId) => ({ roomId, ...night(date, nights) })),
      });
    // 10 Feb: one room of four taken (3 free: available); 11 Feb: two taken (few); 12 Feb: all four (full).
    await book([site.roomIds[0]!], '2027-02-10', 3);
    await book([site.roomIds[1]!], '2027-02-11', 2);
    await book([site.roomIds[2]!, site.roomIds[3]!], '2027-02-12');
    const answer = await callPublic(
      'GET',
      '/api/public/facilities/{slug}/availability',
      { slug: site.slug },
      { query: '?from=2027-02-09&to=2027-02-13' },
    );
    expect(answer.status).toBe(200);
    expect(
      answer.body.data.map((d: { date: string; roomTypes: { free: number; level: string }[] }) => [
        d.date,
        d.roomTypes[0]!.free,
        d.roomTypes[0]!.level,
      ]),
    ).toEqual([
      ['2027-02-09', 4, 'available'],
      ['2027-02-10', 3, 'available'],
      ['2027-02-11', 2, 'few'],
      ['2027-02-12', 0, 'full'],
      ['2027-02-13', 4, 'available'],
    ]);
    const past = await callPublic(
      'GET',
      '/api/public/facilities/{slug}/availability',
      { slug: site.slug },
      { query: '?from=2026-01-01&to=2026-01-02' },
    );
    expect(past.body.data.map((d: { roomTypes: { level: string }[] }) => d.roomTypes[0]!.level)).toEqual([
      'past',
      'past',
    ]);
    const tooLong = await callPublic(
      'GET',
      '/api/public/facilities/{slug}/availability',
      { slug: site.slug },
      { query: '?from=2027-01-01&to=2027-03-15' },
    );
    expect(tooLong.status).toBe(400);
  });

  it('prices a weekend, a holiday and a stay across both from the rate table, and hourly by the step', async () => {
    const site = await createBookingSite(admin);
    const price = async (checkIn: string, checkOut: string) =>
      (
        await callPublic(
          'POST',
          '/api/public/facilities/{slug}/quotes',
          { slug: site.slug },
          {
            body: { roomTypeId: site.roomTypeId, checkIn, checkOut },
          },
        )
      ).body.data;
    expect(await price('2027-02-03', '2027-02-04')).toEqual({ available: true, amountCents: 12000, currency: 'jpy' });
    expect((await price('2027-02-05', '2027-02-06')).amountCents).toBe(15000); // a Friday night
    expect((await price('2027-02-10', '2027-02-11')).amountCents).toBe(18000); // the eve of National Foundation Day
    // Thu 31 Dec (New Year's Eve: holiday price), Fri, Sat (weekend), Sun (weekday).
    expect((await price('2026-12-31', '2027-01-04')).amountCents).toBe(18000 + 15000 + 15000 + 12000);
    // A client's price is no part of the request.
    const forged = await callPublic(
      'POST',
      '/api/public/facilities/{slug}/quotes',
      { slug: site.slug },
      {
        body: { roomTypeId: site.roomTypeId, checkIn: '2027-02-03', checkOut: '2027-02-04', amountCents: 1 },
      },
    );
    expect(forged.status).toBe(400);

    const hourly = await createBookingSite(admin, { unit: 'hour', rates: { weekday: 2000, weekend: 3000 } });
    const hours = async (startsAt: string, endsAt: string) =>
      callPublic(
        'POST',
        '/api/public/facilities/{slug}/quotes',
        { slug: hourly.slug },
        {
          body: { roomTypeId: hourly.roomTypeId, startsAt, endsAt },
        },
      );
    // Wed 3 Feb 2027, 10:00–11:30 Tokyo: 1.5 h at 2000; Sat 6 Feb 10:00–11:00: 3000.
    expect((await hours('2027-02-03T01:00:00Z', '2027-02-03T02:30:00Z')).body.data.amountCents).toBe(3000);
    expect((await hours('2027-02-06T01:00:00Z', '2027-02-06T02:00:00Z')).body.data.amountCents).toBe(3000);
    expect((await hours('2027-02-03T01:10:00Z', '2027-02-03T02:00:00Z')).status).toBe(400); // not a 15-minute step
    expect((await hours('2027-02-03T13:00:00Z', '2027-02-03T14:00:00Z')).status).toBe(400); // 22:00 Tokyo: closed
  });

  it('mails a code and holds nothing until it is typed; wrong codes count and the fifth ends the request', async () => {
    const site = await createBookingSite(admin, { rooms: 1 });
    const who = guest('codes');
    const asked = await request(site.slug, {
      roomTypeId: site.roomTypeId,
      checkIn: '2027-03-01',
      checkOut: '2027-03-03',
      guest: who,
      locale: 'ja',
      acceptTerms: true,
    });
    expect(asked.status).toBe(202);
    const id = asked.body.data.id as string;
    expect(asked.body.data.status).toBe('awaiting_code');
    expect(JSON.stringify(asked.body)).not.toContain(bookingCode(id));
    const { rows: mails } = await admin.query(
      `select kind, to_address, locale from messages where tenant_id = $1 and booking_request_id = $2`,
      [site.tenantId, id],
    );
    expect(mails).toEqual([{ kind: 'booking_code', to_address: who.email, locale: 'ja' }]);
    const held = async () =>
      (await admin.query(`select count(*)::int as n from reservations where tenant_id = $1`, [site.tenantId])).rows[0]
        .n;
    expect(await held()).toBe(0);

    const wrong = wrongCodeFor(id);
    for (let i = 1; i <= 4; i++) {
      const answer = await confirm(id, wrong);
      expect({ i, status: answer.status, code: answer.body.error.code }).toEqual({
        i,
        status: 400,
        code: 'invalid_code',
      });
    }
    const fifth = await confirm(id, wrong);
    expect({ status: fifth.status, code: fifth.body.error.code }).toEqual({ status: 410, code: 'gone' });
    // Ended: even the right code does nothing now, and the guest's details are gone from the request.
    expect((await confirm(id, bookingCode(id))).status).toBe(410);
    expect(await held()).toBe(0);
    const { rows } = await admin.query(
      `select status, guest_email from booking_requests where tenant_id = $1 and id = $2`,
      [site.tenantId, id],
    );
    expect(rows).toEqual([{ status: 'gone', guest_email: null }]);
  });

  it('refuses a code older than 15 minutes with 410 and a malformed one with 400', async () => {
    const site = await createBookingSite(admin, { rooms: 1 });
    const asked = await request(site.slug, {
      roomTypeId: site.roomTypeId,
      checkIn: '2027-03-05',
      checkOut: '2027-03-06',
      guest: guest('old'),
      acceptTerms: true,
    });
    const id = asked.body.data.id as string;
    expect((await confirm(id, '12ab56')).status).toBe(400);
    await admin.query(`update booking_requests set code_expires_at = now() - interval '1 second' where id = $1`, [id]);
    expect((await confirm(id, bookingCode(id))).status).toBe(410);
    const unaccepted = await request(site.slug, {
      roomTypeId: site.roomTypeId,
      checkIn: '2027-03-05',
      checkOut: '2027-03-06',
      guest: guest('terms'),
      acceptTerms: false,
    });
    expect(unaccepted.status).toBe(400);
  });

  it('confirms at once where payment is at the property, mails the key link once, and answers the same again', async () => {
    const site = await createBookingSite(admin, { rooms: 1, payment: 'at_property' });
    const asked = await request(site.slug, {
      roomTypeId: site.roomTypeId,
      checkIn: '2027-03-10',
      checkOut: '2027-03-12',
      guest: guest('desk'),
      acceptTerms: true,
    });
    const id = asked.body.data.id as string;
    const first = await confirm(id, bookingCode(id));
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ status: 'confirmed', paymentUrl: null, holdExpiresAt: null });
    const again = await confirm(id, bookingCode(id));
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    const { rows } = await admin.query(
      `select r.status, r.source, r.room_id, r.plan_name_snapshot, g.amount_cents,
              (select count(*)::int from messages m where m.tenant_id = r.tenant_id and m.reservation_id = r.id and m.kind = 'key_link') as key_links
         from reservations r join booking_groups g on g.tenant_id = r.tenant_id and g.id = r.booking_group_id
        where r.tenant_id = $1`,
      [site.tenantId],
    );
    expect(rows).toEqual([
      {
        status: 'confirmed',
        source: 'booking_site',
        room_id: site.roomIds[0],
        plan_name_snapshot: expect.any(String),
        amount_cents: 12000 + 12000,
        key_links: 1,
      },
    ]);
    // The guest's details moved to the guest record: the request and its code mail keep none.
    const { rows: kept } = await admin.query(
      `select q.guest_email, m.to_address from booking_requests q
         join messages m on m.tenant_id = q.tenant_id and m.booking_request_id = q.id where q.id = $1`,
      [id],
    );
    expect(kept).toEqual([{ guest_email: null, to_address: null }]);
    const status = await callPublic('GET', '/api/public/booking-requests/{id}', { id });
    expect(status.body.data).toMatchObject({
      status: 'confirmed',
      paid: false,
      payment: 'at_property',
      amountCents: 24000,
    });
  });

  it('gives exactly one of five concurrent guests the last room of a type; the others get 409', async () => {
    const site = await createBookingSite(admin, { rooms: 2 });
    // One of the two rooms is taken already: one is left.
    await bookGroup({
      tenantId: site.tenantId,
      actor: TEST_ACTOR,
      guest: { name: 'Earlier' },
      source: 'api',
      reservations: [
        {
          roomId: site.roomIds[0]!,
          startsAt: zonedDateTime('2027-04-01', '15:00', 'Asia/Tokyo'),
          endsAt: zonedDateTime('2027-04-03', '10:00', 'Asia/Tokyo'),
        },
      ],
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const asked = await request(site.slug, {
        roomTypeId: site.roomTypeId,
        checkIn: '2027-04-02',
        checkOut: '2027-04-04',
        guest: guest(`race${i}`),
        acceptTerms: true,
      });
      expect(asked.status).toBe(202);
      ids.push(asked.body.data.id);
    }
    const answers = await Promise.all(ids.map((id) => confirm(id, bookingCode(id))));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const { rows } = await admin.query(
      `select room_id from reservations where tenant_id = $1 and source = 'booking_site' and status <> 'cancelled'`,
      [site.tenantId],
    );
    expect(rows).toEqual([{ room_id: site.roomIds[1] }]);
  });

  it('limits new requests per address and per email address', async () => {
    const site = await createBookingSite(admin, { rooms: 1 });
    const body = (email: string) => ({
      roomTypeId: site.roomTypeId,
      checkIn: '2027-05-01',
      checkOut: '2027-05-02',
      guest: { name: 'Spam', email },
      acceptTerms: true,
    });
    const address = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const fromOne: number[] = [];
    for (let i = 0; i < 10; i++)
      fromOne.push((await request(site.slug, body(`many-${i}-${Date.now()}@example.com`), address)).status);
    expect(fromOne.every((s) => s === 202)).toBe(true);
    // The 11th is refused before its body is read.
    expect(
      await postStreamed('/api/public/facilities/{slug}/booking-requests', { slug: site.slug }, 200 * 1024, address),
    ).toEqual({ status: 429, code: 'rate_limited', bodyRead: false });
    const victim = `victim-${Date.now()}@example.com`;
    const toOne: number[] = [];
    for (let i = 0; i < 6; i++) toOne.push((await request(site.slug, body(victim))).status);
    expect(toOne).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
