import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { createBookingGroup } from '../bookings/create-booking-group';
import { calBooking, processAll, sendCal, tenantWithSources } from '../../tooling/testing/booking-webhooks';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { routeHandler } from '../api/router';

const bookingGroups = routeHandler('POST', '/api/v1/booking-groups');

// Issue 28, item 12: a guest's mails are in the guest's language — the booking's locale, else the
// one the provider says, else the facility's default language — not Japanese for any Tokyo facility.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const HOUR = 3_600_000;

async function keyLinkLocale(reservationId: string): Promise<string> {
  const { rows } = await admin.query(
    `select locale from messages where reservation_id = $1 and kind = 'key_link' and occasion = 'booking'`,
    [reservationId],
  );
  expect(rows).toHaveLength(1);
  return rows[0].locale;
}

async function book(tenantId: string, roomId: string, locale?: 'en' | 'ja', inHours = 1) {
  const startsAt = new Date(Date.now() + inHours * HOUR);
  const group = await createBookingGroup({
    tenantId,
    actor: TEST_ACTOR,
    guest: { name: 'Guest', email: `guest-${Math.random().toString(36).slice(2)}@example.test` },
    source: 'api',
    locale,
    reservations: [{ roomId, startsAt, endsAt: new Date(startsAt.getTime() + 24 * HOUR) }],
  });
  return group.reservations[0]!.id;
}

describe('the language of a guest’s mails', () => {
  it('at a Tokyo facility: the booking’s locale when it has one, else the facility’s default language', async () => {
    const t = await createBookableTenant(); // Asia/Tokyo
    expect(await keyLinkLocale(await book(t.tenantId, t.roomIds[0]!, 'en'))).toBe('en');
    expect(await keyLinkLocale(await book(t.tenantId, t.roomIds[1]!))).toBe('en');
    await admin.query(`update facilities set default_language = 'ja' where id = $1`, [t.facilityId]);
    const ja = await book(t.tenantId, t.roomIds[1]!, undefined, 48);
    expect(await keyLinkLocale(ja)).toBe('ja');
    const en = await createBookableTenant();
    await admin.query(`update facilities set default_language = 'ja' where id = $1`, [en.facilityId]);
    expect(await keyLinkLocale(await book(en.tenantId, en.roomIds[0]!, 'en'))).toBe('en');
  });

  it('the API takes the booking’s locale', async () => {
    const t = await createBookableTenant();
    await admin.query(`update facilities set default_language = 'ja' where id = $1`, [t.facilityId]);
    const { key } = await createApiKey({ tenantId: t.tenantId, name: 'pms', actor: TEST_ACTOR });
    const startsAt = new Date(Date.now() + HOUR);
    const response = await bookingGroups(
      new Request('http://test/api/v1/booking-groups', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          guest: { name: 'Alex', email: 'alex@example.test' },
          locale: 'en',
          reservations: [
            { roomId: t.roomIds[0], startsAt, endsAt: new Date(startsAt.getTime() + 24 * HOUR).toISOString() },
          ],
        }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(201);
    const reservationId = (await response.json()).data.reservations[0].id;
    expect(await keyLinkLocale(reservationId)).toBe('en');
  });

  it('a Cal.com booking takes its attendee’s language', async () => {
    const t = await tenantWithSources();
    await admin.query(`update facilities set default_language = 'ja' where id = $1`, [t.facilityId]);
    const uid = `cal-${Math.random().toString(36).slice(2)}`;
    const answer = await sendCal(
      t.tenantId,
      calBooking('BOOKING_CREATED', uid, {
        attendees: [{ name: 'Sam', email: 'sam@example.test', language: { locale: 'en-GB' } }],
      }),
    );
    expect(answer.status).toBe(200);
    await processAll(admin, t.tenantId);
    const { rows } = await admin.query(`select id from reservations where tenant_id = $1 and external_ref = $2`, [
      t.tenantId,
      uid,
    ]);
    expect(await keyLinkLocale(rows[0].id)).toBe('en');
  });
});
