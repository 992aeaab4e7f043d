import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { syncIcalFeedNow } from '../ical/feeds';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { icalCalendar as calendar, icalEvent as event, startFeedServer } from '../../tooling/testing/ical-feed-server';
import { routeHandler } from './router';

// API.md: GET/POST /api/v1/ical-feeds (`{roomId, url}`) and POST /api/v1/ical-feeds/{id}/sync answering
// `{data:{created, changed, cancelled, rejected}}`, beside the room's and the room type's own feed routes.

const list = routeHandler('GET', '/api/v1/ical-feeds');
const add = routeHandler('POST', '/api/v1/ical-feeds');
const sync = routeHandler('POST', '/api/v1/ical-feeds/{id}/sync');

let admin: pg.Client;
let feeds: Awaited<ReturnType<typeof startFeedServer>>;
let a: Awaited<ReturnType<typeof tenantWithKey>>;
let b: Awaited<ReturnType<typeof tenantWithKey>>;
const previousAllow = process.env.ALLOW_PRIVATE_FETCH;

async function tenantWithKey(name: string) {
  const tenant = await createBookableTenant({ rooms: 2, lockDevices: false, name });
  const { key } = await createApiKey({ tenantId: tenant.tenantId, name: 'channel manager', actor: TEST_ACTOR });
  const typeId = (
    await admin.query<{ id: string }>(
      `insert into room_types (tenant_id, facility_id, name, weekday_cents) values ($1, $2, 'Twin', 10000) returning id`,
      [tenant.tenantId, tenant.facilityId],
    )
  ).rows[0]!.id;
  return { ...tenant, apiKey: key, typeId };
}

const headers = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });
const post = (apiKey: string, body: unknown) =>
  add(
    new Request('http://test/api/v1/ical-feeds', {
      method: 'POST',
      headers: headers(apiKey),
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
const get = (apiKey: string, query = '') =>
  list(new Request(`http://test/api/v1/ical-feeds${query}`, { headers: headers(apiKey) }), {
    params: Promise.resolve({}),
  });
const syncNow = (apiKey: string, id: string) =>
  sync(new Request(`http://test/api/v1/ical-feeds/${id}/sync`, { method: 'POST', headers: headers(apiKey) }), {
    params: Promise.resolve({ id }),
  });

const feedCount = async (tenantId: string) =>
  (await admin.query(`select count(*)::int as n from ical_feeds where tenant_id = $1`, [tenantId])).rows[0].n;
const auditCount = async (tenantId: string) =>
  (await admin.query(`select count(*)::int as n from audit_events where tenant_id = $1`, [tenantId])).rows[0].n;
/** The feed's stays by UID: status and dates. */
const staysOf = async (feedId: string) =>
  (
    await admin.query<{ uid: string; event_status: string; status: string | null; starts_at: Date | null }>(
      `select e.uid, e.status as event_status, r.status::text as status, r.starts_at
         from ical_feed_events e left join reservations r on r.tenant_id = e.tenant_id and r.id = e.reservation_id
        where e.feed_id = $1 order by e.uid`,
      [feedId],
    )
  ).rows;

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_FETCH = '1';
  admin = await adminClient();
  feeds = await startFeedServer();
  [a, b] = await Promise.all([tenantWithKey('iCal API A'), tenantWithKey('iCal API B')]);
});
afterAll(async () => {
  process.env.ALLOW_PRIVATE_FETCH = previousAllow;
  await feeds.close();
  await admin.end();
});
beforeEach(() => {
  feeds.failWith = null;
});

describe('POST /api/v1/ical-feeds', () => {
  it('imports a feed into a room ({roomId, url}) or a room type, audited, and lists both with GET', async () => {
    const url = 'https://www.airbnb.com/calendar/ical/1234.ics?s=secret';
    const response = await post(a.apiKey, { roomId: a.roomIds[0], url });
    expect(response.status).toBe(201);
    const { data: feed } = await response.json();
    expect(feed).toMatchObject({
      roomId: a.roomIds[0],
      roomTypeId: null,
      channel: 'other',
      host: 'www.airbnb.com',
      lastFetchedAt: null,
      failures: 0,
      stays: 0,
    });
    // The URL is the channel's secret: not in the answer, only in the row.
    expect(JSON.stringify(feed)).not.toContain('secret');
    const row = (
      await admin.query(`select room_id, url from ical_feeds where tenant_id = $1 and id = $2`, [a.tenantId, feed.id])
    ).rows[0];
    expect(row).toEqual({ room_id: a.roomIds[0], url });
    const audit = (
      await admin.query(
        `select action, metadata from audit_events where tenant_id = $1 and action = 'ical_feed.added'`,
        [a.tenantId],
      )
    ).rows;
    expect(audit).toEqual([{ action: 'ical_feed.added', metadata: expect.objectContaining({ feedId: feed.id }) }]);

    const typed = await post(a.apiKey, {
      roomTypeId: a.typeId,
      url: 'https://admin.booking.com/x.ics',
      channel: 'booking',
    });
    expect(typed.status).toBe(201);
    const { data: typeFeed } = await typed.json();
    expect(typeFeed).toMatchObject({
      roomId: null,
      roomTypeId: a.typeId,
      channel: 'booking',
      channelLabel: 'Booking.com',
    });

    const listed = await get(a.apiKey);
    expect(listed.status).toBe(200);
    const body = await listed.json();
    expect(body.nextCursor).toBeNull();
    expect(body.data.map((f: { id: string }) => f.id)).toEqual([feed.id, typeFeed.id]);
    expect(body.data[1]).toEqual(typeFeed);
    // Another tenant's key lists none of them.
    expect((await (await get(b.apiKey)).json()).data).toEqual([]);
  });

  it('pages the list with limit and cursor', async () => {
    const all = (await (await get(a.apiKey)).json()).data as { id: string }[];
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = await (await get(a.apiKey, '?limit=1')).json();
    expect(first.data.map((f: { id: string }) => f.id)).toEqual([all[0]!.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (await get(a.apiKey, `?limit=1&cursor=${first.nextCursor}`)).json();
    expect(second.data.map((f: { id: string }) => f.id)).toEqual([all[1]!.id]);
    expect((await get(a.apiKey, '?limit=500')).status).toBe(400);
  });

  it('refuses bad input with issues and another tenant’s room or type with 404, writing nothing', async () => {
    const before = [await feedCount(a.tenantId), await auditCount(a.tenantId), await feedCount(b.tenantId)];
    const bad: [unknown, string][] = [
      [{ roomId: a.roomIds[0] }, 'url'],
      [{ roomId: a.roomIds[0], url: 'ftp://example.com/x.ics' }, 'url'],
      [{ url: 'https://example.com/x.ics' }, 'roomId'],
      [{ roomId: a.roomIds[0], roomTypeId: a.typeId, url: 'https://example.com/x.ics' }, 'roomId'],
      [{ roomId: 'room-101', url: 'https://example.com/x.ics' }, 'roomId'],
      [{ roomId: a.roomIds[0], url: 'https://example.com/x.ics', channel: 'expedia' }, 'channel'],
      [{ roomId: a.roomIds[0], url: 'https://example.com/x.ics', note: 'extra' }, ''],
    ];
    for (const [body, path] of bad) {
      const response = await post(a.apiKey, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      const { error } = await response.json();
      expect(error.code).toBe('invalid_request');
      expect(error.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expect((await post(a.apiKey, '{"roomId":')).status).toBe(400);
    for (const body of [
      { roomId: b.roomIds[0], url: 'https://example.com/theirs.ics' },
      { roomTypeId: b.typeId, url: 'https://example.com/theirs.ics' },
    ]) {
      const response = await post(a.apiKey, body);
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
    }
    // The same URL twice on a room → 409 conflict.
    const dup = await post(a.apiKey, {
      roomId: a.roomIds[0],
      url: 'https://www.airbnb.com/calendar/ical/1234.ics?s=secret',
    });
    expect(dup.status).toBe(409);
    expect((await dup.json()).error.code).toBe('conflict');
    expect([await feedCount(a.tenantId), await auditCount(a.tenantId), await feedCount(b.tenantId)]).toEqual(before);
  });
});

describe('POST /api/v1/ical-feeds/{id}/sync', () => {
  it('fetches the feed now and answers what it created, changed, cancelled and rejected', async () => {
    feeds.body = calendar(event('s1@airbnb.com', 10, 13), event('s2@airbnb.com', 20, 22));
    const created = await post(a.apiKey, { roomId: a.roomIds[1], url: feeds.url, channel: 'airbnb' });
    const feedId = (await created.json()).data.id as string;

    const first = await syncNow(a.apiKey, feedId);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      data: { created: 2, changed: 0, cancelled: 0, rejected: 0, status: 'synced', error: null },
    });
    expect((await staysOf(feedId)).map((s) => [s.uid, s.event_status, s.status])).toEqual([
      ['s1@airbnb.com', 'booked', 'confirmed'],
      ['s2@airbnb.com', 'booked', 'confirmed'],
    ]);

    // s1 moves two days later; s2 disappears (cancelled only at its second absence); s3 overlaps s1's new dates.
    feeds.body = calendar(event('s1@airbnb.com', 12, 15), event('s3@airbnb.com', 14, 16));
    expect((await (await syncNow(a.apiKey, feedId)).json()).data).toEqual({
      created: 0,
      changed: 1,
      cancelled: 0,
      rejected: 1,
      status: 'synced',
      error: null,
    });
    // The channel answers 304 now: its last content again, so s2 is missing a second time.
    expect((await (await syncNow(a.apiKey, feedId)).json()).data).toEqual({
      created: 0,
      changed: 0,
      cancelled: 1,
      rejected: 0,
      status: 'not_modified',
      error: null,
    });
    const stays = await staysOf(feedId);
    expect(stays.map((s) => [s.uid, s.event_status, s.status])).toEqual([
      ['s1@airbnb.com', 'booked', 'confirmed'],
      ['s2@airbnb.com', 'cancelled', 'cancelled'],
      ['s3@airbnb.com', 'rejected', null],
    ]);
    // The feed's own record says it was fetched.
    const listed = (await (await get(a.apiKey)).json()).data.find((f: { id: string }) => f.id === feedId);
    expect(listed).toMatchObject({ stays: 1, failures: 0, lastSuccessAt: expect.any(String) });
  });

  it('answers a failed fetch as failed, cancelling nothing', async () => {
    feeds.body = calendar(event('f1@airbnb.com', 40, 42));
    const created = await post(a.apiKey, { roomId: a.roomIds[0], url: `${feeds.url}?failing`, channel: 'airbnb' });
    const feedId = (await created.json()).data.id as string;
    expect((await (await syncNow(a.apiKey, feedId)).json()).data).toMatchObject({ created: 1, status: 'synced' });
    feeds.failWith = 503;
    for (let i = 0; i < 2; i++) {
      const response = await syncNow(a.apiKey, feedId);
      expect(response.status).toBe(200);
      const { data } = await response.json();
      expect(data).toEqual({
        created: 0,
        changed: 0,
        cancelled: 0,
        rejected: 0,
        status: 'failed',
        error: expect.any(String),
      });
      expect(data.error).not.toContain('127.0.0.1');
    }
    expect((await staysOf(feedId)).map((s) => s.status)).toEqual(['confirmed']);
    expect(
      (await admin.query(`select failures from ical_feeds where tenant_id = $1 and id = $2`, [a.tenantId, feedId]))
        .rows[0].failures,
    ).toBe(2);
  });

  it('answers 404 for another tenant’s feed or an unknown one, fetching and writing nothing', async () => {
    feeds.body = calendar(event('b1@airbnb.com', 50, 52));
    const theirs = (
      await admin.query<{ id: string }>(
        `insert into ical_feeds (tenant_id, room_id, url, next_fetch_at) values ($1, $2, $3, now() + interval '1 day') returning id`,
        [b.tenantId, b.roomIds[0], `${feeds.url}?b`],
      )
    ).rows[0]!.id;
    const requests = feeds.requests.length;
    for (const id of [theirs, '00000000-0000-4000-8000-000000000000']) {
      const response = await syncNow(a.apiKey, id);
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
    }
    expect((await syncNow(a.apiKey, 'not-a-uuid')).status).toBe(400);
    expect(feeds.requests.length).toBe(requests);
    expect(
      (await admin.query(`select last_fetched_at, syncing_until from ical_feeds where id = $1`, [theirs])).rows[0],
    ).toEqual({ last_fetched_at: null, syncing_until: null });
  });

  it('waits for a sync of the feed already running, and gives up with 409 conflict when it does not end', async () => {
    feeds.body = calendar(event('w1@airbnb.com', 60, 62));
    const created = await post(a.apiKey, { roomId: a.roomIds[0], url: `${feeds.url}?wait`, channel: 'vrbo' });
    const feedId = (await created.json()).data.id as string;
    const lease = (interval: string) =>
      admin.query(`update ical_feeds set syncing_until = now() + $2::interval where id = $1`, [feedId, interval]);

    await lease('1 minute');
    await expect(syncIcalFeedNow({ tenantId: a.tenantId, feedId, waitMs: 300 })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await staysOf(feedId)).toEqual([]);

    // The running sync ends while this one waits: this one then fetches.
    setTimeout(() => void lease('0 seconds'), 300);
    expect(await syncIcalFeedNow({ tenantId: a.tenantId, feedId, waitMs: 5000 })).toMatchObject({ created: 1 });
    // A sync gives its lease back; one left by a process that died runs out.
    expect(
      (await admin.query(`select syncing_until from ical_feeds where id = $1`, [feedId])).rows[0].syncing_until,
    ).toBeNull();
    await admin.query(`update ical_feeds set syncing_until = now() - interval '1 second' where id = $1`, [feedId]);
    expect((await syncNow(a.apiKey, feedId)).status).toBe(200);
  });
});
