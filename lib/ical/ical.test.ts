import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import {
  etagOf,
  icalCalendar as calendar,
  icalEvent as event,
  startFeedServer,
} from '../../tooling/testing/ical-feed-server';
import { createBookingGroup } from '../bookings/create-booking-group';
import { exportFeed, roomIcalUrl, rotateRoomIcalUrl } from './export-feed';
import { fetchFeed } from './fetch-feed';
import { parseFeed } from './parse-feed';
import { enqueueDueFeeds, syncFeed } from './sync-feed';

// A channel's feed, served by a local HTTP server the way Airbnb serves one (tooling/testing/ical-feed-server.ts).
let feeds: Awaited<ReturnType<typeof startFeedServer>>;
let feedUrl = '';

let admin: pg.Client;
let tenant: Awaited<ReturnType<typeof createBookableTenant>>;
let roomId: string;
let feedId: string;
const previousAllow = process.env.ALLOW_PRIVATE_FETCH;

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_FETCH = '1';
  feeds = await startFeedServer();
  feedUrl = feeds.url;
  admin = await adminClient();
  tenant = await createBookableTenant({ rooms: 2, lockDevices: false, name: 'iCal' });
  roomId = tenant.roomIds[0]!;
  // The feed is written here, not through addIcalFeed: that one queues a fetch for whichever worker runs.
  feedId = (
    await admin.query(
      `insert into ical_feeds (tenant_id, room_id, channel, url, next_fetch_at) values ($1, $2, 'airbnb', $3, now() + interval '1 day') returning id`,
      [tenant.tenantId, roomId, feedUrl],
    )
  ).rows[0].id;
});
afterAll(async () => {
  process.env.ALLOW_PRIVATE_FETCH = previousAllow;
  await admin.end();
  await feeds.close();
});
beforeEach(() => {
  feeds.failWith = null;
  feeds.requests = [];
});

const sync = () => syncFeed({ tenantId: tenant.tenantId, feedId });
const stay = async (uid: string) =>
  (
    await admin.query(
      `select r.id, r.status::text as status, r.source::text as source, r.starts_at, r.ends_at, e.missing, e.status as event_status
         from ical_feed_events e left join reservations r on r.tenant_id = e.tenant_id and r.id = e.reservation_id
        where e.tenant_id = $1 and e.feed_id = $2 and e.uid = $3`,
      [tenant.tenantId, feedId, uid],
    )
  ).rows[0];
const openIncident = async (kind: string) =>
  (
    await admin.query(
      `select occurrences, severity, summary, detail from incidents where tenant_id = $1 and kind = $2 and resolved_at is null`,
      [tenant.tenantId, kind],
    )
  ).rows[0];

describe('an iCal import feed', () => {
  it('books each new UID as a stay from check-in to check-out, DTEND exclusive, and a repeat fetch is a 304', async () => {
    feeds.body = calendar(event('u1@airbnb.com', 10, 13), event('u2@airbnb.com', 20, 22));
    expect(await sync()).toMatchObject({ status: 'synced', booked: 2, cancelled: 0, rejected: 0 });
    const u1 = await stay('u1@airbnb.com');
    expect(u1).toMatchObject({ status: 'confirmed', source: 'ical', event_status: 'booked', missing: 0 });
    const facility = (
      await admin.query(
        `select to_char(check_in_time, 'HH24:MI') as check_in, to_char(check_out_time, 'HH24:MI') as check_out, time_zone from facilities where tenant_id = $1`,
        [tenant.tenantId],
      )
    ).rows[0];
    const [expected] = parseFeed(feeds.body, {
      timeZone: facility.time_zone,
      checkInTime: facility.check_in,
      checkOutTime: facility.check_out,
    }).ok
      ? (
          parseFeed(feeds.body, {
            timeZone: facility.time_zone,
            checkInTime: facility.check_in,
            checkOutTime: facility.check_out,
          }) as {
            events: { startsAt: Date; endsAt: Date }[];
          }
        ).events
      : [];
    expect(u1.starts_at).toEqual(expected!.startsAt);
    expect(u1.ends_at).toEqual(expected!.endsAt);
    expect(
      (await admin.query(`select external_ref from reservations where id = $1`, [u1.id])).rows[0].external_ref,
    ).toBe('u1@airbnb.com');
    // A pre-issued key like any booking's.
    expect(
      (
        await admin.query(`select count(*)::int as n from access_keys where tenant_id = $1 and reservation_id = $2`, [
          tenant.tenantId,
          u1.id,
        ])
      ).rows[0].n,
    ).toBe(1);

    expect(await sync()).toMatchObject({ status: 'not_modified', booked: 0 });
    expect(feeds.requests.map((headers) => headers['if-none-match'])).toEqual([undefined, etagOf(feeds.body)]);
  });

  it('moves a stay whose dates changed, and cancels one only after it is missing from two successful fetches', async () => {
    feeds.body = calendar(event('u1@airbnb.com', 11, 14), event('u2@airbnb.com', 20, 22));
    const before = await stay('u1@airbnb.com');
    expect(await sync()).toMatchObject({ status: 'synced', moved: 1 });
    const moved = await stay('u1@airbnb.com');
    expect(moved.id).toBe(before.id);
    expect(moved.starts_at.getTime() - before.starts_at.getTime()).toBe(86_400_000);

    feeds.body = calendar(event('u1@airbnb.com', 11, 14));
    expect(await sync()).toMatchObject({ cancelled: 0 });
    expect(await stay('u2@airbnb.com')).toMatchObject({ status: 'confirmed', missing: 1 });
    // A failed fetch and an empty one between the two do not count.
    feeds.failWith = 500;
    expect(await sync()).toMatchObject({ status: 'failed' });
    feeds.failWith = null;
    const was = feeds.body;
    feeds.body = calendar();
    expect(await sync()).toMatchObject({ status: 'synced', cancelled: 0 });
    expect(await stay('u2@airbnb.com')).toMatchObject({ status: 'confirmed', missing: 1 });
    expect(await stay('u1@airbnb.com')).toMatchObject({ status: 'confirmed' });
    feeds.body = was + ' '; // the same events, another ETag
    expect(await sync()).toMatchObject({ status: 'synced', cancelled: 1 });
    expect(await stay('u2@airbnb.com')).toMatchObject({ status: 'cancelled', event_status: 'cancelled' });
    expect(await stay('u1@airbnb.com')).toMatchObject({ status: 'confirmed', missing: 0 });
  });

  it('counts failures on one incident, raised at the 5th, resolved by the next success; a malformed feed cancels nothing', async () => {
    await admin.query(`update incidents set resolved_at = now() where tenant_id = $1 and kind = 'ical_fetch_failed'`, [
      tenant.tenantId,
    ]);
    feeds.failWith = 500;
    await sync();
    expect(await openIncident('ical_fetch_failed')).toMatchObject({ occurrences: 1, severity: 'warning' });
    expect((await openIncident('ical_fetch_failed')).summary).toContain('answered 500');
    expect((await openIncident('ical_fetch_failed')).summary).not.toContain('127.0.0.1');
    for (let i = 0; i < 4; i++) await sync();
    expect(await openIncident('ical_fetch_failed')).toMatchObject({ occurrences: 5, severity: 'critical' });
    feeds.failWith = null;
    const was = feeds.body;
    feeds.body = '<html><body>Please sign in</body></html>';
    expect(await sync()).toMatchObject({ status: 'failed', cancelled: 0 });
    expect(await openIncident('ical_fetch_failed')).toMatchObject({ occurrences: 6 });
    expect(await stay('u1@airbnb.com')).toMatchObject({ status: 'confirmed' });
    feeds.body = `${was}  `;
    expect(await sync()).toMatchObject({ status: 'synced' });
    expect(await openIncident('ical_fetch_failed')).toBeUndefined();
    expect((await admin.query(`select failures from ical_feeds where id = $1`, [feedId])).rows[0].failures).toBe(0);
  });

  it('refuses an event that overlaps a stay already on the room, with an incident naming both', async () => {
    const desk = await createBookingGroup({
      tenantId: tenant.tenantId,
      actor: TEST_ACTOR,
      guest: { name: 'Desk Guest' },
      reservations: [
        { roomId, startsAt: new Date(Date.now() + 30 * 86_400_000), endsAt: new Date(Date.now() + 32 * 86_400_000) },
      ],
      source: 'desk',
    });
    feeds.body = calendar(event('u1@airbnb.com', 11, 14), event('u3@airbnb.com', 31, 33));
    expect(await sync()).toMatchObject({ booked: 0, rejected: 1 });
    expect(await stay('u3@airbnb.com')).toMatchObject({ id: null, event_status: 'rejected' });
    const incident = await openIncident('ical_conflict');
    expect(incident.severity).toBe('critical');
    expect(incident.detail).toMatchObject({
      uid: 'u3@airbnb.com',
      overlaps: [{ reservationId: desk.reservations[0]!.id, source: 'desk' }],
    });
    // Fetched again, the same conflict is not counted twice.
    feeds.body += ' ';
    await sync();
    expect((await openIncident('ical_conflict')).occurrences).toBe(1);
  });

  it('books a new UID once when two fetches of the feed run at once', async () => {
    feeds.body = calendar(event('u1@airbnb.com', 11, 14), event('u4@airbnb.com', 40, 42));
    await Promise.allSettled([sync(), sync()]);
    const rows = await admin.query(
      `select count(*)::int as n from reservations where tenant_id = $1 and external_ref like 'u4@airbnb.com%' and status = 'confirmed'`,
      [tenant.tenantId],
    );
    expect(rows.rows[0].n).toBe(1);
  });

  it('has the poll enqueue every due feed, however many statements of a batch that takes', async () => {
    const due = (
      await admin.query<{ id: string }>(
        `insert into ical_feeds (tenant_id, room_id, channel, url, next_fetch_at)
         select $1, $2, 'airbnb', $3 || '?copy=' || n, now() - interval '1 minute' from generate_series(1, 5) n
         returning id`,
        [tenant.tenantId, tenant.roomIds[1], feedUrl],
      )
    ).rows.map((r) => r.id);
    try {
      // Batches of two: three statements for five feeds (and whatever else of other tests was due).
      expect(await enqueueDueFeeds(2)).toBeGreaterThanOrEqual(5);
      const rows = await admin.query(
        `select count(*)::int as n from ical_feeds where id = any($1::uuid[]) and next_fetch_at > now()`,
        [due],
      );
      expect(rows.rows[0].n).toBe(5);
      const jobs = await admin.query(
        `select count(*)::int as n from graphile_worker._private_jobs where key = any($1::text[])`,
        [due.map((id) => `ical:${id}`)],
      );
      expect(jobs.rows[0].n).toBe(5);
    } finally {
      await admin.query(`delete from graphile_worker._private_jobs where key = any($1::text[])`, [
        due.map((id) => `ical:${id}`),
      ]);
      await admin.query(`delete from ical_feeds where id = any($1::uuid[])`, [due]);
    }
  });
});

describe('an iCal export', () => {
  it('serves the room’s busy periods as Reserved events without guest data, at a URL that rotating ends', async () => {
    const { url } = await roomIcalUrl({ tenantId: tenant.tenantId, roomId });
    expect((await roomIcalUrl({ tenantId: tenant.tenantId, roomId })).url).toBe(url);
    const token = /\/ical\/([^/]+)\.ics$/.exec(url)![1]!;
    const text = (await exportFeed(token))!;
    expect(text).not.toContain('Desk Guest');
    const parsed = parseFeed(text, { timeZone: 'Asia/Tokyo', checkInTime: '15:00', checkOutTime: '10:00' });
    expect(parsed.ok).toBe(true);
    const reserved = (
      await admin.query(
        `select id from reservations where tenant_id = $1 and room_id = $2 and status in ('confirmed','checked_in','held')`,
        [tenant.tenantId, roomId],
      )
    ).rows.map((r) => `${r.id}@unlockos`);
    if (parsed.ok) {
      expect(parsed.events.map((e) => e.uid).sort()).toEqual(reserved.sort());
      expect(new Set(parsed.events.map((e) => e.summary))).toEqual(new Set(['Reserved']));
    }
    // Another tenant's room: not found.
    const other = await createBookableTenant({ rooms: 1, lockDevices: false });
    await expect(roomIcalUrl({ tenantId: tenant.tenantId, roomId: other.roomIds[0]! })).rejects.toMatchObject({
      code: 'not_found',
    });
    const rotated = await rotateRoomIcalUrl({ tenantId: tenant.tenantId, roomId, actor: TEST_ACTOR });
    expect(rotated.url).not.toBe(url);
    expect(await exportFeed(token)).toBeNull();
    expect(await exportFeed(/\/ical\/([^/]+)\.ics$/.exec(rotated.url)![1]!)).toContain('BEGIN:VCALENDAR');
    expect(await exportFeed('short')).toBeNull();
  });
});

describe('fetching a feed', () => {
  it('refuses private and loopback addresses unless the operator allows them', async () => {
    delete process.env.ALLOW_PRIVATE_FETCH;
    try {
      expect(await fetchFeed(feedUrl, null)).toEqual({
        status: 'failed',
        reason: 'the address is private or loopback',
      });
      expect(await fetchFeed(feedUrl.replace('127.0.0.1', 'localhost'), null)).toEqual({
        status: 'failed',
        reason: 'the address is private or loopback',
      });
      expect(await fetchFeed('file:///etc/passwd', null)).toMatchObject({ status: 'failed' });
    } finally {
      process.env.ALLOW_PRIVATE_FETCH = '1';
    }
  });

  it('stops at 2 MB', async () => {
    feeds.body = calendar(event('big', 50, 51)) + 'X'.repeat(2 * 1024 * 1024);
    expect(await fetchFeed(feedUrl, null)).toEqual({ status: 'failed', reason: 'the feed is larger than 2 MB' });
  });
});
