import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { icalCalendar as calendar, icalEvent as event, startFeedServer } from '../../tooling/testing/ical-feed-server';
import { createBookingGroup } from '../bookings/create-booking-group';
import { addIcalFeed, listIcalFeeds } from './feeds';
import { syncFeed } from './sync-feed';

// A room type's feed (one Airbnb listing for several alike rooms): each UID goes on the first room of the type free
// for it, and a double booking across channels is refused only when every room of the type is taken.
let feeds: Awaited<ReturnType<typeof startFeedServer>>;
let admin: pg.Client;
let tenant: Awaited<ReturnType<typeof createBookableTenant>>;
let typeId: string;
let feedId: string;
const previousAllow = process.env.ALLOW_PRIVATE_FETCH;
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000);

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_FETCH = '1';
  feeds = await startFeedServer();
  admin = await adminClient();
  tenant = await createBookableTenant({ rooms: 3, lockDevices: false, name: 'iCal type' });
  typeId = (
    await admin.query<{ id: string }>(
      `insert into room_types (tenant_id, facility_id, name, weekday_cents) values ($1, $2, 'Twin', 10000) returning id`,
      [tenant.tenantId, tenant.facilityId],
    )
  ).rows[0]!.id;
  // Rooms 101 and 102 are twins; 103 is another kind of room and never takes the feed's stays.
  await admin.query(`update rooms set room_type_id = $2 where tenant_id = $1 and id = any($3)`, [
    tenant.tenantId,
    typeId,
    tenant.roomIds.slice(0, 2),
  ]);
  feedId = (
    await admin.query(
      `insert into ical_feeds (tenant_id, room_type_id, channel, url, next_fetch_at)
       values ($1, $2, 'booking', $3, now() + interval '1 day') returning id`,
      [tenant.tenantId, typeId, feeds.url],
    )
  ).rows[0].id;
});
afterAll(async () => {
  process.env.ALLOW_PRIVATE_FETCH = previousAllow;
  await admin.end();
  await feeds.close();
});

const sync = () => syncFeed({ tenantId: tenant.tenantId, feedId });
const stay = async (uid: string) =>
  (
    await admin.query(
      `select r.id, r.room_id, r.status::text as status, r.starts_at, e.status as event_status
         from ical_feed_events e left join reservations r on r.tenant_id = e.tenant_id and r.id = e.reservation_id
        where e.tenant_id = $1 and e.feed_id = $2 and e.uid = $3`,
      [tenant.tenantId, feedId, uid],
    )
  ).rows[0];

describe('a room type’s iCal feed', () => {
  it('books each UID on the first free room of the type, and refuses one only when every room is taken', async () => {
    const [room101, room102, room103] = tenant.roomIds as [string, string, string];
    const desk = await createBookingGroup({
      tenantId: tenant.tenantId,
      actor: TEST_ACTOR,
      guest: { name: 'Desk Guest' },
      reservations: [{ roomId: room101, startsAt: inDays(30), endsAt: inDays(32) }],
      source: 'desk',
    });
    feeds.body = calendar(event('t1@booking.com', 10, 12), event('t2@booking.com', 30, 32));
    expect(await sync()).toMatchObject({ status: 'synced', booked: 2, rejected: 0 });
    expect(await stay('t1@booking.com')).toMatchObject({ room_id: room101, status: 'confirmed' });
    // Room 101 has the desk's stay then: the twin next door takes it.
    expect(await stay('t2@booking.com')).toMatchObject({ room_id: room102, status: 'confirmed' });

    // Both twins taken on those nights (room 103 is free, but not of the type): refused, naming both stays.
    feeds.body = calendar(
      event('t1@booking.com', 10, 12),
      event('t2@booking.com', 30, 32),
      event('t3@booking.com', 31, 33),
    );
    expect(await sync()).toMatchObject({ booked: 0, rejected: 1 });
    expect(await stay('t3@booking.com')).toMatchObject({ id: null, event_status: 'rejected' });
    const incident = (
      await admin.query(
        `select summary, detail from incidents where tenant_id = $1 and kind = 'ical_conflict' and resolved_at is null`,
        [tenant.tenantId],
      )
    ).rows[0];
    expect(incident.summary).toContain('room type Twin');
    expect(incident.detail.roomTypeId).toBe(typeId);
    const overlaps = (incident.detail.overlaps as { reservationId: string }[]).map((o) => o.reservationId).sort();
    expect(overlaps).toEqual([desk.reservations[0]!.id, (await stay('t2@booking.com')).id].sort());
    expect(
      (
        await admin.query(`select count(*)::int as n from reservations where tenant_id = $1 and room_id = $2`, [
          tenant.tenantId,
          room103,
        ])
      ).rows[0].n,
    ).toBe(0);
  });

  it('keeps a stay on its room when its dates change, and refuses a change onto that room’s other stay', async () => {
    const before = await stay('t1@booking.com');
    feeds.body = calendar(
      event('t1@booking.com', 11, 13),
      event('t2@booking.com', 30, 32),
      event('t3@booking.com', 31, 33),
    );
    expect(await sync()).toMatchObject({ moved: 1 });
    const moved = await stay('t1@booking.com');
    expect(moved).toMatchObject({ id: before.id, room_id: before.room_id });
    expect(moved.starts_at.getTime() - before.starts_at.getTime()).toBe(86_400_000);
    // Onto the desk's stay in room 101: old dates kept, an incident.
    feeds.body = calendar(
      event('t1@booking.com', 29, 31),
      event('t2@booking.com', 30, 32),
      event('t3@booking.com', 31, 33),
    );
    // (t3 is tried again on every fetch and refused again while both twins are taken.)
    expect(await sync()).toMatchObject({ moved: 0, rejected: 2 });
    expect((await stay('t1@booking.com')).starts_at).toEqual(moved.starts_at);
  });

  it('is listed on its room type, refuses another tenant’s type, and a feed has exactly one target', async () => {
    const listed = await listIcalFeeds({ tenantId: tenant.tenantId, roomTypeId: typeId });
    expect(listed).toMatchObject([
      { id: feedId, channelLabel: 'Booking.com', host: new URL(feeds.url).host, stays: 2 },
    ]);
    expect(await listIcalFeeds({ tenantId: tenant.tenantId, roomId: tenant.roomIds[0]! })).toEqual([]);
    const other = await createBookableTenant({ rooms: 1, lockDevices: false });
    const count = async () =>
      (await admin.query(`select count(*)::int as n from ical_feeds where tenant_id = $1`, [tenant.tenantId])).rows[0]
        .n;
    const before = await count();
    const otherType = (
      await admin.query<{ id: string }>(
        `insert into room_types (tenant_id, facility_id, name, weekday_cents) values ($1, $2, 'Theirs', 10000) returning id`,
        [other.tenantId, other.facilityId],
      )
    ).rows[0]!.id;
    await expect(
      addIcalFeed({
        tenantId: tenant.tenantId,
        roomTypeId: otherType,
        url: 'https://example.com/a.ics',
        channel: 'other',
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(listIcalFeeds({ tenantId: tenant.tenantId, roomTypeId: otherType })).rejects.toMatchObject({
      code: 'not_found',
    });
    // The same URL twice on the type: conflict.
    await expect(
      addIcalFeed({
        tenantId: tenant.tenantId,
        roomTypeId: typeId,
        url: feeds.url,
        channel: 'other',
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(await count()).toBe(before);
    // PostgreSQL: both targets, or none, or another tenant's type.
    await expect(
      admin.query(
        `insert into ical_feeds (tenant_id, room_id, room_type_id, url) values ($1, $2, $3, 'https://x.test/1')`,
        [tenant.tenantId, tenant.roomIds[0], typeId],
      ),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      admin.query(`insert into ical_feeds (tenant_id, url) values ($1, 'https://x.test/2')`, [tenant.tenantId]),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      admin.query(`insert into ical_feeds (tenant_id, room_type_id, url) values ($1, $2, 'https://x.test/3')`, [
        tenant.tenantId,
        otherType,
      ]),
    ).rejects.toMatchObject({ code: '23503' });
    expect(await count()).toBe(before);
  });
});
