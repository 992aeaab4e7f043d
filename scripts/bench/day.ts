// `npm run bench:day`: a synthetic day for N properties of 30 rooms each, against two production web
// processes, two workers, the lock simulator, the mail catcher and the Stripe stand-in on an embedded
// PostgreSQL. The busiest hour of the day is replayed compressed into DAY_WINDOW_SECONDS (60 s: 60×) at
// N = 10, 100, 1,000 (DAY_N), then each kind of operation runs alone to attribute CPU to it. Writes
// docs/PERFORMANCE.md ("A synthetic day (bench:day)").
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import pg from 'pg';
import Stripe from 'stripe';
import { Pool } from 'undici';
import { CHAOS_SECRETS, System } from '../chaos/harness';
import type { ChildKind, ChildSettings } from '../../tooling/config/child-env';
import { TokenCache } from '../../lib/locks/token-cache';
import { createTtlockProvider } from '../../lib/locks/ttlock';
import { cpuByPart, cpuPerOp, machine, processTree, writeSection } from './harness';
import {
  feedBody,
  feedEtag,
  icalDate,
  setFeedEvents,
  startFeeds,
  startStripeSide,
  type Feed,
  type FeedEvent,
  type FeedServer,
} from './day-outside';

/** A line on stderr saying where the bench is (a run lasts an hour or more). */
const progress = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

/** CPU by part of the system this bench started (its process tree), not the rest of the machine. */
const cpuNow = () => cpuByPart(processTree());

const STEPS = (process.env.DAY_N ?? '10,100,1000').split(',').map(Number);
const WINDOW_S = Number(process.env.DAY_WINDOW_SECONDS ?? 60);
const COMPRESSION = 3600 / WINDOW_S;
/** How long after the window the bench waits for keys to sync and the workers to drain. */
const SETTLE_S = Number(process.env.DAY_SETTLE_SECONDS ?? 30);
/** Operations per kind in the cost phase (each kind alone, 4 at a time). */
const COST_OPS = Number(process.env.DAY_COST_OPS ?? 40);
/** Operations of a cheap kind (a feed poll, a lock read: a few ms each) in the cost phase, so noise stays small. */
const CHEAP_OPS = Number(process.env.DAY_CHEAP_OPS ?? 300);
/** How often a channel's feed is fetched, in the modelled (real) time: the product's ICAL_POLL_MINUTES. */
const ICAL_POLL_MINUTES = Number(process.env.DAY_ICAL_POLL_MINUTES ?? 15);
/**
 * How often each lock's records are read, in modelled minutes: the product reads every lock each minute (its cron);
 * another value is a what-if (a product that read less often), not what the product does.
 */
const LOCK_READ_MINUTES = Number(process.env.DAY_LOCK_READ_MINUTES ?? 1);
/** The passport photo a foreign guest uploads with the register (KiB). */
const PASSPORT_KB = Number(process.env.DAY_PASSPORT_KB ?? 200);
const ROOMS = 30;

type Kind =
  | 'check-in'
  | 'check-out'
  | 'calendly booking'
  | 'cal.com booking'
  | 'API booking group'
  | 'stripe payment'
  | 'booking request'
  | 'booking confirm'
  | 'checkout webhook ack'
  | 'registration'
  | 'self check-in'
  | 'guest page open'
  | 'guest status poll'
  | 'audit read'
  | 'iCal poll'
  | 'iCal change'
  | 'lock record read'
  | 'door entry';

/** iCal changes in a property's day (its channels' bookings made, moved and cancelled). */
const ICAL_CHANGES = { add: 8, move: 2, remove: 2 } as const;
type ChangeType = keyof typeof ICAL_CHANGES;

// One property's day, and the share of it in the busiest hour (arrivals and departures at their peak,
// bookings and guests with them). iCal feeds are polled at the same rate all day: their hour is the day's
// 24th part.
const DAY: Record<Kind, number> = {
  'check-in': 20,
  'check-out': 20,
  'calendly booking': 8,
  'cal.com booking': 8,
  'API booking group': 8,
  'stripe payment': 8,
  'booking request': 8,
  'booking confirm': 8,
  'checkout webhook ack': 8,
  registration: 10,
  'self check-in': 10,
  'guest page open': 60,
  'guest status poll': 60,
  'audit read': 8,
  'iCal poll': (ROOMS * 24 * 60) / ICAL_POLL_MINUTES,
  'iCal change': ICAL_CHANGES.add + ICAL_CHANGES.move + ICAL_CHANGES.remove,
  // Every lock (the rooms' and the entrance) read once a minute, all day (lib/locks/poll-lock-records.ts).
  'lock record read': ((ROOMS + 1) * 24 * 60) / LOCK_READ_MINUTES,
  // Each arrival's code opens the entrance and the room twice; each departing guest's, both once before leaving.
  'door entry': 30 * 4 + 20 * 2,
};
const KINDS = Object.keys(DAY) as Kind[];
const PEAK_SHARE = 0.25;
/** Work the workers do at the same rate all day: its busiest hour is the day's 24th part. */
const EVEN: Kind[] = ['iCal poll', 'lock record read'];
/** A property's busiest hour: a quarter of the day, but polls (evenly spread) a 24th. */
const perHour = (kind: Kind) => (EVEN.includes(kind) ? DAY[kind] / 24 : DAY[kind] * PEAK_SHARE);
/** Kinds planned at moments of their own; the others follow one of them (a payment, a confirmation…). */
const PLANNED: Kind[] = [
  'check-in',
  'check-out',
  'calendly booking',
  'cal.com booking',
  'API booking group',
  'booking request',
  'registration',
  'guest page open',
  'guest status poll',
  'audit read',
];
/** Kinds that are a request to UnlockOS (the rest is the workers' work, timed where it lands). */
const REQUESTS: Kind[] = KINDS.filter(
  (k) => !['iCal poll', 'iCal change', 'lock record read', 'door entry'].includes(k),
);
/** Openings of a guest's code after check-in: the entrance, the room, and both again later (modelled minutes). */
const ARRIVAL_OPENINGS = [
  { door: 'entrance', minute: 1 },
  { door: 'room', minute: 2 },
  { door: 'entrance', minute: 15 },
  { door: 'room', minute: 16 },
] as const;
/** A departing guest's code before the check-out: the room, then the entrance (modelled minutes before it). */
const DEPARTURE_OPENINGS = [
  { door: 'room', minute: 2 },
  { door: 'entrance', minute: 1 },
] as const;
const MINUTE_MS = 60_000 / COMPRESSION;
const ARRIVALS = 20;
const DEPARTURES = 20;
/** Stays that check themselves in at the door (rooms 101–110, from an hour ahead): registration, then check-in. */
const SELF_ARRIVALS = 10;

const TARGETS = { guestP99: 1000, guestActionP99: 1000, ackP99: 1000, keySync: 10_000, codeMail: 10_000, paid: 10_000 };
const GUEST_ACTIONS: Kind[] = ['booking request', 'booking confirm', 'registration', 'self check-in'];
const ACKS: Kind[] = ['calendly booking', 'cal.com booking', 'stripe payment', 'checkout webhook ack'];
const stripe = new Stripe('sk_test_unused');
const CALENDLY_KEY = 'day-calendly-signing-key';
const CAL_SECRET = 'day-cal-secret';
/** Every iCal event is this many days ahead or more, where no other booking of the bench goes (they stay within 200). */
const ICAL_FIRST_DAY = 400;
const ICAL_BASE = Date.now();

type Stay = { reservationId: string; token: string; room: number };
/** A departing guest: their key's PIN is on both doors (on the simulator too, for the ones leaving in the window). */
type Departure = { reservationId: string; keyId: string; pin: string; room: number };
type Property = {
  tenantId: string;
  apiKey: string;
  roomIds: string[];
  calendlyEventType: string;
  slug: string;
  roomTypeId: string;
  /** The tenant's Stripe connected account (on the stand-in). */
  stripeAccount: string;
  arrivals: Stay[];
  selfArrivals: Stay[];
  departures: Departure[];
  feeds: DayFeed[];
  /** The simulator's lock ids (device ids) of each room's door and of the entrance. */
  roomDevices: string[];
  entranceDevice: string;
  nextArrival: number;
  nextSelf: number;
  nextDeparture: number;
  nextBooking: number;
  guest: number;
};
/** A feed as the bench drives it: the moments it was made due and not fetched since. */
type DayFeed = Feed & { due: number[]; changed: boolean };

/** A feed's event in slot `slot` (two nights from the slot's first day), moved `shift` days. */
const slotEvent = (feedId: string, slot: number, shift = 0): FeedEvent => ({
  uid: `day-${feedId}-${slot}@airbnb.example`,
  from: icalDate(ICAL_BASE, ICAL_FIRST_DAY + 4 * slot + shift),
  to: icalDate(ICAL_BASE, ICAL_FIRST_DAY + 4 * slot + shift + 2),
});
/** An all-day date's check-in (15:00) or check-out (10:00) in Asia/Tokyo (UTC+9, no summer time), as the feed's stay. */
const tokyo = (date: string, hour: number) =>
  new Date(
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(4, 6)) - 1, Number(date.slice(6, 8)), hour - 9),
  ).toISOString();

// ---------------------------------------------------------------------------------------------
// Seeding: N properties in a few statements (SQL unnest), with triggers off
// (session_replication_role = replica) so the keys already on the doors need no worker.

let deviceSeq = 100_000_000;

async function seed(admin: pg.Client, n: number, step: string): Promise<Property[]> {
  const { guestTokenFor, hashGuestToken } = await import('../../lib/auth/guest-links');
  const { currentDataKey } = await import('../../lib/secrets/data-key');
  const { hashApiKey, generateApiKey } = await import('../../lib/auth/api-keys');
  const props: Property[] = [];
  const rows = {
    tenants: [[], [], []] as string[][],
    facilities: [[], [], []] as string[][],
    roomTypes: [[], [], []] as string[][],
    rooms: [[], [], [], [], []] as (string | null)[][],
    locks: [[], [], []] as string[][],
    roomLocks: [[], [], [], []] as string[][],
    sources: [[], [], [], []] as string[][],
    apiKeys: [[], [], []] as (string | Buffer)[][],
    res: [[], [], [], [], [], [], [], [], [], []] as (string | null)[][],
    links: [[], [], [], []] as (string | Buffer)[][],
    checkIns: [[], [], []] as string[][],
    keys: [[], [], [], [], [], [], [], [], []] as (string | null)[][],
    doors: [[], [], [], []] as string[][],
    feeds: [[], [], [], [], []] as string[][],
    feedEvents: [[], [], [], [], [], []] as string[][],
  };
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  for (let p = 0; p < n; p++) {
    const tenantId = randomUUID();
    const facilityId = randomUUID();
    const roomTypeId = randomUUID();
    const slug = `day-${step.toLowerCase()}-${p}-${randomBytes(3).toString('hex')}`;
    rows.tenants[0]!.push(tenantId);
    rows.tenants[1]!.push(`Day ${step} ${p}`);
    const stripeAccount = `acct_${randomBytes(12).toString('hex')}`;
    rows.tenants[2]!.push(stripeAccount);
    rows.facilities[0]!.push(tenantId);
    rows.facilities[1]!.push(facilityId);
    rows.facilities[2]!.push(slug);
    rows.roomTypes[0]!.push(tenantId);
    rows.roomTypes[1]!.push(roomTypeId);
    rows.roomTypes[2]!.push(facilityId);
    // The main entrance: one lock every room's code goes on too.
    const entrance = randomUUID();
    const entranceDevice = String(deviceSeq++);
    rows.locks[0]!.push(tenantId);
    rows.locks[1]!.push(entrance);
    rows.locks[2]!.push(entranceDevice);
    const roomIds: string[] = [];
    const roomLock: string[] = [];
    const roomDevices: string[] = [];
    for (let r = 0; r < ROOMS; r++) {
      const roomId = randomUUID();
      const lockId = randomUUID();
      roomIds.push(roomId);
      roomLock.push(lockId);
      rows.rooms[0]!.push(tenantId);
      rows.rooms[1]!.push(roomId);
      rows.rooms[2]!.push(facilityId);
      rows.rooms[3]!.push(String(101 + r));
      // Rooms 101–104 take Calendly's, Cal.com's and the API's bookings; the booking site sells the others.
      rows.rooms[4]!.push(r < 4 ? null : roomTypeId);
      const device = String(deviceSeq++);
      roomDevices.push(device);
      rows.locks[0]!.push(tenantId);
      rows.locks[1]!.push(lockId);
      rows.locks[2]!.push(device);
      for (const [lock, role] of [
        [lockId, 'room'],
        [entrance, 'entrance'],
      ] as const) {
        rows.roomLocks[0]!.push(tenantId);
        rows.roomLocks[1]!.push(roomId);
        rows.roomLocks[2]!.push(lock);
        rows.roomLocks[3]!.push(role);
      }
    }
    const calendlyEventType = `https://api.calendly.com/event_types/DAY-${tenantId}`;
    rows.sources[0]!.push(tenantId, tenantId);
    rows.sources[1]!.push('calendly', 'cal');
    rows.sources[2]!.push(calendlyEventType, '777');
    rows.sources[3]!.push(roomIds[0]!, roomIds[1]!);
    const key = generateApiKey();
    rows.apiKeys[0]!.push(tenantId);
    rows.apiKeys[1]!.push(key.prefix);
    rows.apiKeys[2]!.push(Buffer.from(hashApiKey(key.key)));

    // 20 departures (rooms 101–120: in since yesterday, leaving in 30 minutes, keys on both doors),
    // 20 arrivals for the desk (rooms 111–130) and 10 who check themselves in at the door (rooms 101–110), all from
    // an hour ahead with check-in open and a pre-issued key on both doors (as the day's seed always had it, the
    // seed's arrival keys overlap the departures' last half hour: it writes them without the triggers).
    let pin = 100_000;
    const reservation = (o: {
      room: number;
      startsAt: string;
      endsAt: string;
      status: string;
      guest: string;
      source: string;
      externalRef: string | null;
    }) => {
      const reservationId = randomUUID();
      rows.res[0]!.push(tenantId);
      rows.res[1]!.push(reservationId);
      rows.res[2]!.push(roomIds[o.room]!);
      rows.res[3]!.push(o.startsAt);
      rows.res[4]!.push(o.endsAt);
      rows.res[5]!.push(o.status);
      rows.res[6]!.push(String(101 + o.room));
      rows.res[7]!.push(o.guest);
      rows.res[8]!.push(o.source);
      rows.res[9]!.push(o.externalRef);
      return reservationId;
    };
    const addStay = (room: number, kind: 'departure' | 'arrival' | 'self') => {
      const arriving = kind !== 'departure';
      const startsAt = arriving ? at(3_600_000) : at(-86_400_000);
      const endsAt = arriving ? at(26 * 3_600_000) : at(1_800_000);
      const reservationId = reservation({
        room,
        startsAt,
        endsAt,
        status: arriving ? 'confirmed' : 'checked_in',
        guest: `Guest ${room}`,
        source: 'api',
        externalRef: null,
      });
      const keyId = randomUUID();
      let checkInId: string | null = null;
      if (!arriving) {
        checkInId = randomUUID();
        rows.checkIns[0]!.push(tenantId);
        rows.checkIns[1]!.push(checkInId);
        rows.checkIns[2]!.push(reservationId);
      }
      rows.keys[0]!.push(tenantId);
      rows.keys[1]!.push(keyId);
      rows.keys[2]!.push(reservationId);
      rows.keys[3]!.push(checkInId);
      rows.keys[4]!.push(roomIds[room]!);
      rows.keys[5]!.push(arriving ? 'pre_issued' : 'active');
      const keyPin = String(pin++);
      rows.keys[6]!.push(keyPin);
      rows.keys[7]!.push(arriving ? new Date(Date.parse(startsAt) - 7_200_000).toISOString() : startsAt);
      rows.keys[8]!.push(endsAt);
      for (const lock of [roomLock[room]!, entrance]) {
        rows.doors[0]!.push(tenantId);
        rows.doors[1]!.push(keyId);
        rows.doors[2]!.push(lock);
        rows.doors[3]!.push(String(pin + 500_000));
      }
      return { reservationId, keyId, pin: keyPin, room };
    };
    const link = ({ reservationId, room }: { reservationId: string; room: number }): Stay => {
      const linkId = randomUUID();
      const token = guestTokenFor(linkId);
      rows.links[0]!.push(tenantId);
      rows.links[1]!.push(linkId);
      rows.links[2]!.push(reservationId);
      rows.links[3]!.push(Buffer.from(hashGuestToken(token)));
      return { reservationId, token, room };
    };
    // Departures leave from room 120 down: the window's are rooms 116–120, away from the rooms whose guests check
    // themselves in during it (101–103), whose keys the seed lets overlap the departing guests' last half hour.
    const departures = Array.from({ length: DEPARTURES }, (_, i) => addStay(DEPARTURES - 1 - i, 'departure'));
    const arrivals = Array.from({ length: ARRIVALS }, (_, i) => link(addStay(ROOMS - ARRIVALS + i, 'arrival')));
    const selfArrivals = Array.from({ length: SELF_ARRIVALS }, (_, i) => link(addStay(i, 'self')));
    // Every room imports a channel's feed (served by this bench), which has two stays booked already.
    const feeds: DayFeed[] = [];
    for (let r = 0; r < ROOMS; r++) {
      const id = randomUUID();
      const events = [slotEvent(id, 0), slotEvent(id, 1)];
      const body = feedBody(events);
      const feed: DayFeed = {
        id,
        tenantId,
        events,
        body,
        etag: feedEtag(body),
        fetches: [],
        nextSlot: 2,
        firstTouched: false,
        due: [],
        changed: false,
      };
      feeds.push(feed);
      feedServer.feeds.set(id, feed);
      rows.feeds[0]!.push(tenantId);
      rows.feeds[1]!.push(id);
      rows.feeds[2]!.push(roomIds[r]!);
      rows.feeds[3]!.push(`${feedServer.url}/${id}.ics`);
      rows.feeds[4]!.push(feed.etag);
      for (const event of events) {
        const startsAt = tokyo(event.from, 15);
        const endsAt = tokyo(event.to, 10);
        const reservationId = reservation({
          room: r,
          startsAt,
          endsAt,
          status: 'confirmed',
          guest: 'Airbnb guest',
          source: 'ical',
          externalRef: event.uid,
        });
        rows.feedEvents[0]!.push(tenantId);
        rows.feedEvents[1]!.push(id);
        rows.feedEvents[2]!.push(event.uid);
        rows.feedEvents[3]!.push(reservationId);
        rows.feedEvents[4]!.push(startsAt);
        rows.feedEvents[5]!.push(endsAt);
      }
    }
    props.push({
      tenantId,
      apiKey: key.key,
      roomIds,
      calendlyEventType,
      slug,
      roomTypeId,
      stripeAccount,
      arrivals,
      selfArrivals,
      departures,
      feeds,
      roomDevices,
      entranceDevice,
      nextArrival: 0,
      nextSelf: 0,
      nextDeparture: 0,
      nextBooking: 0,
      guest: 0,
    });
  }
  const { key: dataKey, version } = currentDataKey();
  await admin.query('begin');
  await admin.query(`set local session_replication_role = replica`);
  const q = (sql: string, params: unknown[]) => admin.query(sql, params);
  await q(
    `insert into tenants (id, name, stripe_account_id) select * from unnest($1::uuid[], $2::text[], $3::text[])`,
    rows.tenants,
  );
  // A published booking site taking payment online, where guests check themselves in after the register.
  await q(
    `insert into facilities (tenant_id, id, name, time_zone, early_check_in_minutes, slug, published_at, payment_mode,
                             payment_chosen_at, check_in_mode, self_check_in_opens_hours, registration, terms_text, privacy_text)
     select t, f, 'Main', 'Asia/Tokyo', 120, s, now(), 'online', now(), 'self', 24, 'jp', 'Be kind.', 'We keep your data safe.'
       from unnest($1::uuid[], $2::uuid[], $3::text[]) as x(t, f, s)`,
    rows.facilities,
  );
  await q(
    `insert into room_types (tenant_id, id, facility_id, name, description, capacity, weekday_cents, weekend_cents)
     select t, rt, f, 'Double', 'A double bed by the window', 2, 12000, 15000
       from unnest($1::uuid[], $2::uuid[], $3::uuid[]) as x(t, rt, f)`,
    rows.roomTypes,
  );
  await q(
    `insert into rooms (tenant_id, id, facility_id, label, room_type_id)
     select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[])`,
    rows.rooms,
  );
  await q(
    `insert into locks (tenant_id, id, provider, device_id, name, online)
     select t, l, 'simulator', d, 'Door ' || d, true from unnest($1::uuid[], $2::uuid[], $3::text[]) as x(t, l, d)`,
    rows.locks,
  );
  await q(
    `insert into room_locks (tenant_id, room_id, lock_id, role)
     select t, r, l, role::door_role from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[]) as x(t, r, l, role)`,
    rows.roomLocks,
  );
  await q(
    `insert into booking_sources (tenant_id, provider, event_type, room_id)
     select t, p::webhook_provider, e, r from unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[]) as x(t, p, e, r)`,
    rows.sources,
  );
  await q(
    `select app_secret_set(t, 'calendly', $2, $4, $5), app_secret_set(t, 'cal', $3, $4, $5) from unnest($1::uuid[]) t`,
    [rows.tenants[0], CALENDLY_KEY, CAL_SECRET, dataKey, version],
  );
  await q(
    `insert into api_keys (tenant_id, name, prefix, secret_hash) select t, 'day bench', p, h from unnest($1::uuid[], $2::text[], $3::bytea[]) as x(t, p, h)`,
    rows.apiKeys,
  );
  await q(
    `with g as (insert into guests (tenant_id, id, name) select t, r, n from unnest($1::uuid[], $2::uuid[], $8::text[]) as x(t, r, n) returning 1),
          b as (insert into booking_groups (tenant_id, id) select t, r from unnest($1::uuid[], $2::uuid[]) as x(t, r) returning 1)
     insert into reservations (tenant_id, id, booking_group_id, room_id, guest_id, starts_at, ends_at, status, source, external_ref,
                               room_label_snapshot, guest_ref_snapshot)
     select t, r, r, room, r, s, e, st::reservation_status, src::reservation_source, ext, l, 'G-' || r
       from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::timestamptz[], $6::text[], $7::text[], $8::text[],
                   $9::text[], $10::text[]) as x(t, r, room, s, e, st, l, n, src, ext)`,
    rows.res,
  );
  await q(
    `insert into check_ins (tenant_id, id, reservation_id) select * from unnest($1::uuid[], $2::uuid[], $3::uuid[])`,
    rows.checkIns,
  );
  await q(
    `insert into guest_links (tenant_id, id, reservation_id, token_hash, expires_at)
     select t, i, r, h, now() + interval '3 days' from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::bytea[]) as x(t, i, r, h)`,
    rows.links,
  );
  await q(
    `insert into access_keys (tenant_id, id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at, vendor_sync)
     select t, k, r, c, room, s::key_status, pin, f, e, 'synced'
       from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[]) as x(t, k, r, c, room, s, pin, f, e)`,
    rows.keys,
  );
  await q(
    `insert into key_lock_codes (tenant_id, key_id, lock_id, state, code_id, set_at)
     select t, k, l, 'set', c, now() from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[]) as x(t, k, l, c)`,
    rows.doors,
  );
  // Not due until the window arms them (the workers' poll sets the next fetch ICAL_POLL_MINUTES later).
  await q(
    `insert into ical_feeds (tenant_id, id, room_id, channel, url, etag, next_fetch_at, last_fetched_at, last_success_at)
     select t, f, r, 'airbnb', u, e, now() + interval '1 day', now(), now()
       from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[]) as x(t, f, r, u, e)`,
    rows.feeds,
  );
  await q(
    `insert into ical_feed_events (tenant_id, feed_id, uid, status, reservation_id, starts_at, ends_at)
     select t, f, u, 'booked', r, s, e
       from unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::timestamptz[], $6::timestamptz[]) as x(t, f, u, r, s, e)`,
    rows.feedEvents,
  );
  // The global lookups (docs/SCALING.md) are kept by triggers, which this load switched off.
  await q(
    `insert into api_key_secrets (secret_hash, tenant_id, api_key_id)
     select k.secret_hash, k.tenant_id, k.id from api_keys k where k.tenant_id = any($1::uuid[])`,
    [rows.tenants[0]],
  );
  await q(
    `insert into guest_link_tokens (token_hash, tenant_id, guest_link_id)
     select l.token_hash, l.tenant_id, l.id from guest_links l where l.tenant_id = any($1::uuid[])`,
    [rows.tenants[0]],
  );
  await q(
    `insert into facility_slugs (slug, tenant_id, facility_id) select s, t, f from unnest($1::uuid[], $2::uuid[], $3::text[]) as x(t, f, s)`,
    rows.facilities,
  );
  await admin.query('commit');
  await admin.query('analyze');
  return props;
}

// ---------------------------------------------------------------------------------------------
// The operations, through the real HTTP endpoints.

type Sample = { kind: Kind; ms: number; status: number };
let webs: Pool[] = [];
let rr = 0;
const hoursFrom = (base: number, h: number) => new Date(base + h * 3_600_000).toISOString();
const DAY_MS = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** At most this many requests in flight; one that waited longer than GIVE_UP_MS for its turn is not sent (a timeout). */
const IN_FLIGHT = 256;
const GIVE_UP_MS = 30_000;
let inFlight = 0;
const waiting: (() => void)[] = [];

async function send(
  kind: Kind,
  path: string,
  method: 'GET' | 'POST' | 'PUT',
  headers: Record<string, string>,
  body?: string,
  started = performance.now(),
): Promise<{ sample: Sample; json: unknown }> {
  if (inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
  inFlight++;
  try {
    if (performance.now() - started > GIVE_UP_MS)
      return { sample: { kind, ms: performance.now() - started, status: 0 }, json: null };
    return await request(kind, path, method, headers, body, started);
  } finally {
    inFlight--;
    waiting.shift()?.();
  }
}

async function request(
  kind: Kind,
  path: string,
  method: 'GET' | 'POST' | 'PUT',
  headers: Record<string, string>,
  body: string | undefined,
  started: number,
): Promise<{ sample: Sample; json: unknown }> {
  const pool = webs[rr++ % webs.length]!;
  try {
    const response = await pool.request({
      path,
      method,
      headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
      body,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    const text = await response.body.text();
    let json: unknown = null;
    if (text.startsWith('{')) json = JSON.parse(text);
    return { sample: { kind, ms: performance.now() - started, status: response.statusCode }, json };
  } catch {
    return { sample: { kind, ms: performance.now() - started, status: 0 }, json: null };
  }
}

/** A check-in's key: when it was asked for (epoch ms) and its id, for the sync latency. */
type Issued = { keyId: string; askedAt: number };
/** A change to a channel's feed, made at `at` (epoch ms). */
type Change = { feed: DayFeed; uid: string; type: ChangeType; at: number };
type Out = {
  samples: Sample[];
  issued: Issued[];
  pending: Promise<unknown>[];
  /** Booking code mails: from the request's answer to the mail in the catcher (ms; Infinity if it never came). */
  codeMail: number[];
  /** Checkout payments acknowledged: the booking group and when the acknowledgement came (epoch ms). */
  paid: { bookingGroupId: string; ackAt: number }[];
  changes: Change[];
  /** Polls that found their feed's previous sync still queued, so one fetch served both. */
  mergedPolls: number;
  /** Doors opened by a guest's code: the lock's record (its id and time) and the tenant. */
  openings: { tenantId: string; recordId: string; at: number }[];
  /** Tries at a door refused because the code was not on the lock yet (the guest tried again a minute later). */
  refusedTries: number;
  /** Openings that never succeeded (the code never reached the lock within ten tries). */
  lockedOut: number;
  /** The codes checked-in guests were given, for the cost phase's openings. */
  doorCodes: { p: Property; room: number; pin: string }[];
};
const newOut = (): Out => ({
  samples: [],
  issued: [],
  pending: [],
  codeMail: [],
  paid: [],
  changes: [],
  mergedPolls: 0,
  openings: [],
  refusedTries: 0,
  lockedOut: 0,
  doorCodes: [],
});
/** Where samples that arrive on their own (webhook acknowledgements, feed fetches) go. */
let current: Out = newOut();

/** One operation of `kind` for property `p`; pushes its samples (and a payment after an API booking). */
async function operate(
  kind: Kind,
  p: Property,
  out: Out,
  paymentDelayMs = 0,
  intent = '',
  /** The departure a check-out is for (planned with its openings); the next one when not given. */
  departure?: Departure,
): Promise<void> {
  const auth = { authorization: `Bearer ${p.apiKey}` };
  const record = (sample: Sample) => out.samples.push(sample);
  switch (kind) {
    case 'check-in': {
      const arrival = p.arrivals[p.nextArrival++ % p.arrivals.length]!;
      const askedAt = Date.now();
      const { sample, json } = await send(
        kind,
        `/api/v1/reservations/${arrival.reservationId}/check-in`,
        'POST',
        auth,
        '{}',
      );
      record(sample);
      const key = (json as { data?: { key?: { id?: string; pin?: string } } })?.data?.key;
      if (sample.status === 200 && key?.id) {
        out.issued.push({ keyId: key.id, askedAt });
        if (key.pin) out.pending.push(guestAtDoors(p, arrival.room, key.pin, out));
      }
      return;
    }
    case 'check-out': {
      const { reservationId } = departure ?? p.departures[p.nextDeparture++ % p.departures.length]!;
      record((await send(kind, `/api/v1/reservations/${reservationId}/check-out`, 'POST', auth)).sample);
      return;
    }
    case 'calendly booking': {
      const n = p.nextBooking++;
      const base = Date.now() + (3 + n) * DAY_MS;
      const raw = JSON.stringify({
        event: 'invitee.created',
        created_at: new Date().toISOString(),
        created_by: 'https://api.calendly.com/users/U',
        payload: {
          uri: `https://api.calendly.com/scheduled_events/E/invitees/${randomUUID()}`,
          name: 'Yui Kato',
          email: 'yui@example.com',
          status: 'active',
          rescheduled: false,
          old_invitee: null,
          scheduled_event: {
            uri: `https://api.calendly.com/scheduled_events/${randomUUID()}`,
            start_time: hoursFrom(base, 0),
            end_time: hoursFrom(base, 20),
            event_type: p.calendlyEventType,
          },
        },
      });
      const t = Math.floor(Date.now() / 1000);
      const signature = `t=${t},v1=${hmac(CALENDLY_KEY, `${t}.${raw}`)}`;
      record(
        (
          await send(
            kind,
            `/api/webhooks/calendly/${p.tenantId}`,
            'POST',
            { 'calendly-webhook-signature': signature },
            raw,
          )
        ).sample,
      );
      return;
    }
    case 'cal.com booking': {
      const n = p.nextBooking++;
      const base = Date.now() + (3 + n) * DAY_MS;
      const raw = JSON.stringify({
        triggerEvent: 'BOOKING_CREATED',
        createdAt: new Date().toISOString(),
        payload: {
          uid: randomUUID(),
          startTime: hoursFrom(base, 0),
          endTime: hoursFrom(base, 20),
          eventTypeId: 777,
          attendees: [{ name: 'Leo', email: 'leo@example.com' }],
        },
      });
      record(
        (
          await send(
            kind,
            `/api/webhooks/cal/${p.tenantId}`,
            'POST',
            { 'x-cal-signature-256': hmac(CAL_SECRET, raw) },
            raw,
          )
        ).sample,
      );
      return;
    }
    case 'API booking group': {
      const n = p.nextBooking++;
      const base = Date.now() + (3 + n) * DAY_MS;
      const paymentIntentId = `pi_day_${randomBytes(10).toString('hex')}`;
      // The caller's own checkout made it on the tenant's connected account (the API checks it there).
      stripeSide.standin.addPaymentIntent({
        id: paymentIntentId,
        amount: 20000,
        currency: 'jpy',
        account: p.stripeAccount,
        status: 'requires_payment_method',
      });
      const body = JSON.stringify({
        guest: { name: 'Ana Souza', email: 'ana@example.com' },
        reservations: [2, 3].map((r) => ({
          roomId: p.roomIds[r]!,
          startsAt: hoursFrom(base, 0),
          endsAt: hoursFrom(base, 20),
        })),
        paymentIntentId,
      });
      const { sample } = await send(kind, '/api/v1/booking-groups', 'POST', auth, body);
      record(sample);
      // The guest pays a little later: Stripe tells us (payment_intent.succeeded for that intent).
      if (sample.status === 201 && paymentDelayMs < 0) lastIntents.push(paymentIntentId);
      else if (sample.status === 201)
        out.pending.push(sleep(paymentDelayMs).then(() => operate('stripe payment', p, out, 0, paymentIntentId)));
      return;
    }
    case 'stripe payment': {
      const payload = JSON.stringify({
        id: `evt_day_${randomBytes(10).toString('hex')}`,
        object: 'event',
        account: p.stripeAccount,
        type: 'payment_intent.succeeded',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: { id: intent, object: 'payment_intent', amount: 20000, amount_received: 20000, currency: 'jpy' },
        },
      });
      const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: CHAOS_SECRETS.stripeWebhook });
      record((await send(kind, '/api/webhooks/stripe', 'POST', { 'stripe-signature': signature }, payload)).sample);
      return;
    }
    case 'booking request':
      await bookOnSite(p, out);
      return;
    case 'registration':
      await arriveOnYourOwn(p, out);
      return;
    case 'guest page open':
    case 'guest status poll': {
      const g = p.guest++;
      const arrival = p.arrivals[g % p.arrivals.length]!;
      // Each guest is their own phone: TRUST_PROXY=1 and one forwarded address per guest.
      const headers = { 'x-forwarded-for': guestAddress() };
      const path = kind === 'guest page open' ? `/k/${arrival.token}` : `/api/guest/${arrival.token}/status`;
      record((await send(kind, path, 'GET', headers)).sample);
      return;
    }
    case 'audit read':
      record((await send(kind, '/api/v1/audit-events?limit=50', 'GET', auth)).sample);
      return;
    default:
      throw new Error(`${kind} is not planned on its own`);
  }
}
let guestSeq = 1;
const guestAddress = () => `2001:db8::${(guestSeq++ % 0xffff).toString(16)}`;
const lastIntents: string[] = [];
const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

// ---------------------------------------------------------------------------------------------
// The booking site: a request, the code from the mail catcher, the confirmation, Stripe Checkout on the
// stand-in, and its signed checkout.session.completed acknowledged by the web.

type BookingRequest = { id: string; tenantId: string; address: string };
let bookerSeq = 1;

/** A guest asks for a night or two of the property's room type, 3–62 days ahead, from an address of their own. */
async function requestBooking(p: Property, out: Out): Promise<BookingRequest | null> {
  const n = bookerSeq++;
  const address = `2001:db8:b::${(n % 0xffff).toString(16)}`;
  const nights = 1 + (n % 2);
  const first = Date.now() + (3 + Math.floor(Math.random() * 60)) * DAY_MS;
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const body = JSON.stringify({
    roomTypeId: p.roomTypeId,
    checkIn: date(first),
    checkOut: date(first + nights * DAY_MS),
    guest: { name: 'Mia Tanaka', email: `day-guest-${n}-${randomBytes(3).toString('hex')}@example.com` },
    locale: n % 3 === 0 ? 'ja' : 'en',
    acceptTerms: true,
  });
  const { sample, json } = await send(
    'booking request',
    `/api/public/facilities/${p.slug}/booking-requests`,
    'POST',
    { 'x-forwarded-for': address },
    body,
  );
  out.samples.push(sample);
  const id = (json as { data?: { id?: string } })?.data?.id;
  if (sample.status !== 202 || !id) return null;
  return { id, tenantId: p.tenantId, address };
}

/** The code typed in: the hold and its Checkout URL (null when refused). */
async function confirmBooking(request: BookingRequest, code: string, out: Out): Promise<string | null> {
  const { sample, json } = await send(
    'booking confirm',
    `/api/public/booking-requests/${request.id}/confirm`,
    'POST',
    { 'x-forwarded-for': request.address },
    JSON.stringify({ code }),
  );
  out.samples.push(sample);
  const url = (json as { data?: { paymentUrl?: string | null } })?.data?.paymentUrl;
  return sample.status === 201 && url ? url : null;
}

/** The guest pays on the stand-in's page: it completes the session and delivers the signed event (timed by the proxy). */
async function pay(paymentUrl: string): Promise<void> {
  await fetch(paymentUrl, { method: 'POST', redirect: 'manual' }).catch(() => undefined);
}

/** The whole booking: request, code, confirmation, and a minute (compressed) on Stripe's page before paying. */
async function bookOnSite(p: Property, out: Out): Promise<void> {
  const request = await requestBooking(p, out);
  if (!request) return;
  const code = await codeOf(request, out, GIVE_UP_MS * 2);
  if (code === null) {
    out.samples.push({ kind: 'booking confirm', ms: GIVE_UP_MS * 2, status: 0 });
    return;
  }
  const paymentUrl = await confirmBooking(request, code, out);
  if (!paymentUrl) return;
  await sleep(60_000 / COMPRESSION);
  await pay(paymentUrl);
}

// The codes, as the guest reads them: the mail the worker sent, as the local mail catcher filed it.
const codeWaits = new Map<
  string,
  { tenantId: string; answeredAt: number; out: Out; done: (code: string | null) => void }
>();
function codeOf(request: BookingRequest, out: Out, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if (codeWaits.delete(request.id)) {
        out.codeMail.push(Infinity);
        resolve(null);
      }
    }, timeoutMs);
    codeWaits.set(request.id, {
      tenantId: request.tenantId,
      answeredAt: Date.now(),
      out,
      done: (code) => {
        clearTimeout(timer);
        resolve(code);
      },
    });
  });
}
let watching = true;
/** Every 250 ms, the mails that arrived for the requests waiting for their code (one statement for all). */
async function watchCodes(client: pg.Client): Promise<void> {
  while (watching) {
    if (codeWaits.size > 0) {
      const ids = [...codeWaits.keys()];
      const { rows } = await client.query<{ id: string; text_body: string; received_at: Date }>(
        `select m.booking_request_id::text as id, c.text_body, c.received_at
           from unnest($1::uuid[], $2::text[]) as x(t, occasion)
           join messages m on m.tenant_id = x.t and m.reservation_id is null and m.kind = 'booking_code'
                          and m.occasion = x.occasion
           join caught_mail c on c.tenant_id = m.tenant_id and c.message_id = m.id`,
        [ids.map((id) => codeWaits.get(id)!.tenantId), ids.map((id) => `request:${id}`)],
      );
      for (const row of rows) {
        const wait = codeWaits.get(row.id);
        const code = /\b(\d{6})\b/.exec(row.text_body)?.[1];
        if (!wait || !code) continue;
        codeWaits.delete(row.id);
        wait.out.codeMail.push(Math.max(0, row.received_at.getTime() - wait.answeredAt));
        wait.done(code);
      }
    }
    await sleep(250);
  }
}

// ---------------------------------------------------------------------------------------------
// Self check-in: the guest register (two guests, one from abroad with a passport photo), then the check-in.

const PASSPORT_IMAGE = `data:image/jpeg;base64,${Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  randomBytes(PASSPORT_KB * 1024 - 4),
]).toString('base64')}`;
const REGISTER = JSON.stringify({
  guests: [
    { name: 'Hana Sato', address: '1-2-3 Jingumae, Shibuya, Tokyo', addressInJapan: true, nationality: 'JP' },
    {
      name: 'Tom Berg',
      address: 'Storgatan 1, Stockholm',
      nationality: 'SE',
      occupation: 'engineer',
      passportNumber: 'X1234567',
      passportImage: PASSPORT_IMAGE,
    },
  ],
});

async function register(stay: Stay, out: Out): Promise<boolean> {
  const { sample } = await send(
    'registration',
    `/api/guest/${stay.token}/registration`,
    'PUT',
    { 'x-forwarded-for': guestAddress() },
    REGISTER,
  );
  out.samples.push(sample);
  return sample.status === 200;
}

async function checkInSelf(p: Property, stay: Stay, out: Out): Promise<void> {
  const askedAt = Date.now();
  const { sample, json } = await send('self check-in', `/api/guest/${stay.token}/check-in`, 'POST', {
    'x-forwarded-for': guestAddress(),
  });
  out.samples.push(sample);
  const key = (json as { data?: { id?: string; pin?: string } })?.data;
  if (sample.status === 200 && key?.id) {
    out.issued.push({ keyId: key.id, askedAt });
    if (key.pin) out.pending.push(guestAtDoors(p, stay.room, key.pin, out));
  }
}

async function arriveOnYourOwn(p: Property, out: Out): Promise<void> {
  const stay = p.selfArrivals[p.nextSelf++ % p.selfArrivals.length]!;
  if (await register(stay, out)) await checkInSelf(p, stay, out);
}

// ---------------------------------------------------------------------------------------------
// Doors: a guest types their code on the simulated lock (its control endpoint: the lock's record, uploaded at once
// by its gateway); the workers read every lock's records (/v3/lockRecord/list) and store the openings as entries.

/**
 * A guest's code typed on a door (the simulator's lock id): the opening's record, or a refused try while the code is
 * not on the lock yet — tried again a (compressed) minute later, ten times at most.
 */
async function openDoor(tenantId: string, device: string, pin: string, out: Out): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const answer = (await fetch(`${system.simulatorUrl}/_control/locks/${device}/open`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pin }),
    })
      .then((r) => r.json())
      .catch(() => null)) as { record?: { recordId: number; lockDate: number; success: number } } | null;
    if (answer?.record?.success === 1) {
      out.openings.push({ tenantId, recordId: String(answer.record.recordId), at: answer.record.lockDate });
      return;
    }
    out.refusedTries++;
    await sleep(MINUTE_MS);
  }
  out.lockedOut++;
}

/** Guests go to their doors after checking in (not in the cost phase, where each kind runs alone). */
let guestsAtDoors = true;
const deviceOf = (p: Property, room: number, door: 'room' | 'entrance') =>
  door === 'room' ? p.roomDevices[room]! : p.entranceDevice;

/** After a check-in, the guest's code at the doors at the minutes of ARRIVAL_OPENINGS. */
async function guestAtDoors(p: Property, room: number, pin: string, out: Out): Promise<void> {
  out.doorCodes.push({ p, room, pin });
  if (!guestsAtDoors) return;
  const start = performance.now();
  for (const { door, minute } of ARRIVAL_OPENINGS) {
    await sleep(Math.max(0, start + minute * MINUTE_MS - performance.now()));
    await openDoor(p.tenantId, deviceOf(p, room, door), pin, out);
  }
}

/** Each opening's lag from the lock's record to its entry (`recorded_at`); Infinity when it was not stored. */
async function entryLatencies(openings: Out['openings'], seconds: number): Promise<{ ms: number[]; linked: number }> {
  if (openings.length === 0) return { ms: [], linked: 0 };
  const deadline = performance.now() + seconds * 1000;
  let rows: { id: string; recorded_at: Date; linked: boolean }[] = [];
  for (;;) {
    rows = (
      await admin.query(
        `select e.provider_event_id as id, e.recorded_at, e.key_id is not null as linked from door_entries e
          where (e.tenant_id, e.provider_event_id) in (select * from unnest($1::uuid[], $2::text[]))
            and e.provider = 'simulator'`,
        [openings.map((o) => o.tenantId), openings.map((o) => o.recordId)],
      )
    ).rows;
    if (rows.length >= openings.length || performance.now() > deadline) break;
    await sleep(500);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    ms: openings.map((o) => {
      const row = byId.get(o.recordId);
      return row ? Math.max(0, row.recorded_at.getTime() - o.at) : Infinity;
    }),
    linked: rows.filter((r) => r.linked).length,
  };
}

/**
 * The door-record cron, a minute compressed: one `poll_door_records` job (it queues a read of every lock due). In a
 * queue of its own with a key, so a tick never runs beside the last one (which waits on its row locks of the
 * same read jobs) and ticks that come while one runs are one: the product's cron line has no such guard, but at
 * the rate it runs (once a real minute) a run that lasts a minute is already far past what this bench measures.
 */
async function readDoors(client: pg.Client): Promise<void> {
  await client.query(
    `select graphile_worker.add_job('poll_door_records', '{}'::json, queue_name => 'day-door-tick',
                                    job_key => 'day-door-tick', max_attempts => 1)`,
  );
}

/** The locks of `tenants` are read no more (a step done): only the step being measured is read each minute. */
async function freezeDoors(client: pg.Client, tenants: string[]): Promise<void> {
  await client.query(
    `insert into lock_record_cursors (tenant_id, lock_id, next_poll_at)
     select tenant_id, id, 'infinity' from locks where tenant_id = any($1::uuid[])
     on conflict (tenant_id, lock_id) do update set next_poll_at = 'infinity'`,
    [tenants],
  );
}

/**
 * Puts the PINs of the departing guests leaving in the window on the simulated locks (the seed wrote their keys'
 * door rows without a worker): the provider's own client, as the worker programs a code; the door rows take the
 * code ids the simulator gave.
 */
async function programDepartures(props: Property[], perProperty: number): Promise<void> {
  const provider = createTtlockProvider({
    name: 'simulator',
    baseUrl: system.simulatorUrl,
    clientId: 'unlockos',
    clientSecret: system.simulatorClientSecret,
    username: 'unlockos_chaos',
    password: system.simulatorPassword,
    tokenCache: new TokenCache(),
  });
  const jobs = props.flatMap((p) =>
    p.departures
      .slice(0, perProperty)
      .flatMap((d) => (['room', 'entrance'] as const).map((door) => ({ p, d, device: deviceOf(p, d.room, door) }))),
  );
  const codes: { tenantId: string; keyId: string; device: string; codeId: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < jobs.length) {
        const { p, d, device } = jobs[next++]!;
        const result = await provider.programCode({
          correlationId: `day-departure:${d.keyId}`,
          deviceId: device,
          pin: d.pin,
          validFrom: new Date(Date.now() - DAY_MS),
          expiresAt: new Date(Date.now() + DAY_MS),
          clientRef: d.keyId,
        });
        if (!result.ok) throw new Error(`the simulator refused a departure's code: ${result.code}`);
        codes.push({ tenantId: p.tenantId, keyId: d.keyId, device, codeId: result.data.codeId });
      }
    }),
  );
  await admin.query(
    `update key_lock_codes c set code_id = x.code
       from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) as x(t, k, d, code), locks l
      where l.tenant_id = x.t and l.device_id = x.d and c.tenant_id = x.t and c.key_id = x.k and c.lock_id = l.id`,
    [codes.map((c) => c.tenantId), codes.map((c) => c.keyId), codes.map((c) => c.device), codes.map((c) => c.codeId)],
  );
}

// ---------------------------------------------------------------------------------------------
// iCal: the bench makes feeds due (as the once-a-minute poll finds them, a minute compressed to a second)
// and adds the workers' poll job; the feed server hears the fetches.

/** How long a compressed minute is: the tick of the poll cron. */
const TICK_MS = 60_000 / COMPRESSION;
const POLL_PERIOD_MS = (ICAL_POLL_MINUTES * 60_000) / COMPRESSION;

function onFetch(feed: Feed, at: number, status: number): void {
  const f = feed as DayFeed;
  if (f.due.length === 0) return; // not a fetch the bench asked for
  const served = f.due.filter((d) => d <= at);
  if (served.length === 0) return;
  f.due = f.due.filter((d) => d > at);
  current.samples.push({ kind: 'iCal poll', ms: at - served[0]!, status });
  current.mergedPolls += served.length - 1;
}

/** Makes `feeds` due now and adds one poll job (the product's enqueueDueFeeds gives each its sync job). */
async function arm(client: pg.Client, feeds: DayFeed[]): Promise<void> {
  if (feeds.length === 0) return;
  const at = Date.now();
  for (const f of feeds) f.due.push(at);
  await client.query(
    `update ical_feeds set next_fetch_at = now()
      where (tenant_id, id) in (select * from unnest($1::uuid[], $2::uuid[]))`,
    [feeds.map((f) => f.tenantId), feeds.map((f) => f.id)],
  );
  await client.query(`select graphile_worker.add_job('poll_ical_feeds', '{}'::json, max_attempts => 1)`);
}

/** A change to one of `p`'s feeds: a new stay, one moved by a day, or one cancelled. */
function changeFeed(p: Property, type: ChangeType, out: Out): void {
  const candidates = type === 'add' ? p.feeds : p.feeds.filter((f) => !f.firstTouched);
  const feed = candidates[Math.floor(Math.random() * candidates.length)];
  if (!feed) return;
  let uid: string;
  if (type === 'add') {
    const event = slotEvent(feed.id, feed.nextSlot++);
    uid = event.uid;
    setFeedEvents(feed, [...feed.events, event]);
  } else {
    // The first event (slot 0) moves a day later, or goes; the feed keeps its other stays (an empty feed
    // cancels nothing).
    feed.firstTouched = true;
    uid = feed.events[0]!.uid;
    setFeedEvents(feed, type === 'move' ? [slotEvent(feed.id, 0, 1), ...feed.events.slice(1)] : feed.events.slice(1));
  }
  feed.changed = true;
  out.changes.push({ feed, uid, type, at: Date.now() });
}

/**
 * Each change's lag from the fetch that carried it (a removal: the second fetch without it, which cancels) to its
 * row in ical_feed_events (booked, moved or cancelled); Infinity when it was not applied.
 */
async function changeLatencies(client: pg.Client, changes: Change[]): Promise<{ type: ChangeType; ms: number }[]> {
  if (changes.length === 0) return [];
  const { rows } = await client.query<{ feed_id: string; uid: string; status: string; updated_at: Date }>(
    `select e.feed_id::text, e.uid, e.status, e.updated_at from ical_feed_events e
      where (e.tenant_id, e.feed_id, e.uid) in (select * from unnest($1::uuid[], $2::uuid[], $3::text[]))`,
    [changes.map((c) => c.feed.tenantId), changes.map((c) => c.feed.id), changes.map((c) => c.uid)],
  );
  const byKey = new Map(rows.map((r) => [`${r.feed_id} ${r.uid}`, r]));
  return changes.map((c) => {
    const row = byKey.get(`${c.feed.id} ${c.uid}`);
    const carrying = c.feed.fetches.filter((f) => f.at >= c.at)[c.type === 'remove' ? 1 : 0];
    const applied =
      row &&
      carrying &&
      (c.type === 'remove' ? row.status === 'cancelled' : row.status === 'booked') &&
      row.updated_at.getTime() >= carrying.at - 1000;
    return { type: c.type, ms: applied ? Math.max(0, row.updated_at.getTime() - carrying.at) : Infinity };
  });
}

// ---------------------------------------------------------------------------------------------
// The run.

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
};
const ok = (s: Sample) => (s.status >= 200 && s.status < 300) || s.status === 304;

async function backlog(): Promise<number> {
  const { rows } = await admin.query(
    // Jobs behind a queue locked for over a minute are stalled, not backlog (the report counts them).
    `select (select count(*) from graphile_worker._private_jobs j
              where j.run_at <= now() and j.attempts < j.max_attempts
                and not exists (select 1 from graphile_worker._private_job_queues q
                                 where q.id = j.job_queue_id and q.locked_at < now() - interval '60 seconds'))::int
          + (select count(*) from webhook_events where status = 'received')::int as n`,
  );
  return rows[0].n as number;
}
async function drain(seconds: number): Promise<boolean> {
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    if ((await backlog()) === 0) return true;
    await sleep(250);
  }
  return false;
}

/** Every issued key's sync latency (ms from the check-in request to its last door `set`; Infinity if not synced). */
async function syncLatencies(issued: Issued[], seconds: number): Promise<number[]> {
  const ids = issued.map((i) => i.keyId);
  const deadline = performance.now() + seconds * 1000;
  let rows: { id: string; vendor_sync: string; set_at: Date | null }[] = [];
  for (;;) {
    rows = (
      await admin.query(
        `select k.id, k.vendor_sync, (select max(c.set_at) from key_lock_codes c where c.tenant_id = k.tenant_id and c.key_id = k.id) as set_at
           from access_keys k where k.id = any($1::uuid[])`,
        [ids],
      )
    ).rows;
    if (rows.every((r) => r.vendor_sync !== 'pending') || performance.now() > deadline) break;
    await sleep(500);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return issued.map((i) => {
    const row = byId.get(i.keyId);
    return row?.vendor_sync === 'synced' && row.set_at ? Math.max(0, row.set_at.getTime() - i.askedAt) : Infinity;
  });
}

/** Each checkout payment's lag from the webhook's acknowledgement to its stays confirmed and paid (Infinity if not). */
async function paidLatencies(paid: Out['paid'], seconds: number): Promise<number[]> {
  if (paid.length === 0) return [];
  const deadline = performance.now() + seconds * 1000;
  let rows: { id: string; paid_at: Date | null }[] = [];
  for (;;) {
    rows = (
      await admin.query(
        `select r.booking_group_id::text as id, max(r.paid_at) as paid_at
           from reservations r where r.booking_group_id = any($1::uuid[])
          group by 1 having bool_and(r.status = 'confirmed' and r.paid_at is not null)`,
        [paid.map((x) => x.bookingGroupId)],
      )
    ).rows;
    if (rows.length >= paid.length || performance.now() > deadline) break;
    await sleep(500);
  }
  const byId = new Map(rows.map((r) => [r.id, r.paid_at]));
  return paid.map((x) => {
    const at = byId.get(x.bookingGroupId);
    return at ? Math.max(0, at.getTime() - x.ackAt) : Infinity;
  });
}

type CpuRow = { part: string; ms: number }[];
const cpuOf = (rows: CpuRow, part: string) => rows.find((r) => r.part === part)?.ms ?? 0;
type Statements = { query: string; calls: number; ms: number }[];

type StepResult = {
  n: number;
  seedSeconds: number;
  requests: number;
  wallSeconds: number;
  byKind: Map<Kind, Sample[]>;
  sync: number[];
  codeMail: number[];
  paid: number[];
  changes: { type: ChangeType; ms: number }[];
  mergedPolls: number;
  /** Jobs locked for over a minute after the settling: a worker that stopped taking jobs. */
  stalledJobs: number;
  /** Lock record reads the workers did in the window (each lock asked once a compressed minute). */
  reads: number;
  /** Each opening's lag from the lock's record to its entry (ms; Infinity when not stored). */
  entries: number[];
  linkedEntries: number;
  refusedTries: number;
  lockedOut: number;
  cpuShare: CpuRow;
  backlogAtEnd: number;
  drainedInSeconds: number | null;
  cost: Map<Kind, { ops: number; cpu: CpuRow; statements: Statements; nested: Statements }>;
  costClean: boolean;
  waits: string;
  statements: Statements;
};

/** The poll schedule of a window: each feed every POLL_PERIOD_MS from a random offset of its own. */
function pollSchedule(props: Property[]): { at: number; feed: DayFeed }[] {
  const schedule: { at: number; feed: DayFeed }[] = [];
  for (const p of props)
    for (const feed of p.feeds)
      for (let at = Math.random() * POLL_PERIOD_MS; at < WINDOW_S * 1000; at += POLL_PERIOD_MS)
        schedule.push({ at, feed });
  return schedule.sort((a, b) => a.at - b.at);
}

async function runStep(n: number, props: Property[], seedSeconds: number): Promise<StepResult> {
  // The busiest hour, compressed: every operation at a uniformly random moment of the window.
  const plan: { at: number; kind: Kind; run: () => Promise<void> }[] = [];
  const out = newOut();
  current = out;
  for (const kind of PLANNED) {
    const count = Math.round(n * perHour(kind));
    for (let i = 0; i < count; i++) {
      const p = props[i % props.length]!;
      const at = Math.random() * WINDOW_S * 1000;
      if (kind !== 'check-out') {
        plan.push({ at, kind, run: () => operate(kind, p, out, 300_000 / COMPRESSION) });
        continue;
      }
      // A departing guest's code opens the room and the entrance a minute or two before the check-out.
      const departure = p.departures[p.nextDeparture++ % p.departures.length]!;
      for (const { door, minute } of DEPARTURE_OPENINGS)
        plan.push({
          at: Math.max(0, at - minute * MINUTE_MS),
          kind: 'door entry',
          run: () => openDoor(p.tenantId, deviceOf(p, departure.room, door), departure.pin, out),
        });
      plan.push({ at, kind, run: () => operate(kind, p, out, 0, '', departure) });
    }
  }
  // The channels' changes: late enough in the window for the polls to carry them (a removal needs two).
  for (const type of Object.keys(ICAL_CHANGES) as ChangeType[]) {
    const count = Math.round(n * ICAL_CHANGES[type] * PEAK_SHARE);
    const span = WINDOW_S * 1000 - (type === 'remove' ? 2 : 1) * POLL_PERIOD_MS - TICK_MS;
    for (let i = 0; i < count; i++) {
      const p = props[i % props.length]!;
      plan.push({
        at: Math.random() * Math.max(0, span),
        kind: 'iCal change',
        run: async () => changeFeed(p, type, out),
      });
    }
  }
  plan.sort((a, b) => a.at - b.at);
  const polls = pollSchedule(props);
  await resetStatements();
  const sampler = sampleWaits();
  const cpu0 = cpuNow();
  const started = performance.now();
  // The crons, a minute to a tick: the feeds due since the last tick, and a read of every lock's records, which
  // goes on after the window (as it does every minute) until the openings are stored.
  let doorTicks = true;
  const ticking = (async () => {
    let next = 0;
    for (let tick = 0; next < polls.length || doorTicks; tick++) {
      const now = performance.now() - started;
      const due: DayFeed[] = [];
      while (next < polls.length && polls[next]!.at <= now) due.push(polls[next++]!.feed);
      await arm(watcher, due);
      if (doorTicks && tick % LOCK_READ_MINUTES === 0) await readDoors(watcher);
      await sleep(Math.max(0, TICK_MS - ((performance.now() - started) % TICK_MS)));
    }
  })();
  const sent: Promise<void>[] = [];
  for (const item of plan) {
    const wait = started + item.at - performance.now();
    if (wait > 0) await sleep(wait);
    sent.push(item.run());
  }
  await Promise.all(sent);
  progress(`N=${n}: window sent`);
  await Promise.all(out.pending);
  progress(`N=${n}: follow-ups done`);
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu1 = cpuNow();
  const reads = await lockReads();
  const waits = await sampler.stop();
  const backlogAtEnd = await backlog();
  const sync = await syncLatencies(out.issued, SETTLE_S);
  const paid = await paidLatencies(out.paid, SETTLE_S);
  const drainStart = performance.now();
  const drained = await drain(SETTLE_S);
  const drainedInSeconds = drained ? (performance.now() - drainStart) / 1000 : null;
  // Polls never answered by now are timeouts.
  for (const p of props)
    for (const feed of p.feeds) {
      for (const dueAt of feed.due) out.samples.push({ kind: 'iCal poll', ms: Date.now() - dueAt, status: 0 });
      feed.due = [];
    }
  const entries = await entryLatencies(out.openings, SETTLE_S);
  for (const ms of entries.ms) out.samples.push({ kind: 'door entry', ms, status: Number.isFinite(ms) ? 200 : 0 });
  doorTicks = false;
  await ticking;
  await freezeDoors(
    admin,
    props.map((p) => p.tenantId),
  );
  const changes = await changeLatencies(admin, out.changes);
  for (const c of changes) out.samples.push({ kind: 'iCal change', ms: c.ms, status: Number.isFinite(c.ms) ? 200 : 0 });
  const statements = await topStatements(6);
  const byKind = new Map<Kind, Sample[]>(KINDS.map((k) => [k, out.samples.filter((s) => s.kind === k)]));
  const requests = out.samples.filter((s) => REQUESTS.includes(s.kind)).length;

  // A job locked this long is not being worked on: a worker whose job runner stopped (it still beats).
  const stalledJobs = (
    await admin.query<{ n: number }>(
      `select count(*)::int as n from graphile_worker._private_jobs j
        where j.locked_at < now() - interval '60 seconds'
           or exists (select 1 from graphile_worker._private_job_queues q
                       where q.id = j.job_queue_id and q.locked_at < now() - interval '60 seconds')`,
    )
  ).rows[0]!.n;
  progress(`N=${n}: settled; cost phase`);
  const { cost, costClean } = await costPhase(n, props, out);
  return {
    n,
    seedSeconds,
    requests,
    wallSeconds,
    byKind,
    sync,
    codeMail: out.codeMail,
    paid,
    changes,
    mergedPolls: out.mergedPolls,
    stalledJobs,
    reads,
    entries: entries.ms,
    linkedEntries: entries.linked,
    refusedTries: out.refusedTries,
    lockedOut: out.lockedOut,
    cpuShare: cpuPerOp(cpu0, cpu1, wallSeconds * 1000),
    backlogAtEnd,
    drainedInSeconds,
    cost,
    costClean,
    statements,
    waits,
  };
}

/**
 * Each kind alone, COST_OPS of them four at a time, the workers' follow-up included, between two readings of
 * /proc, minus what the system spends idle; and the statements PostgreSQL spent the most time on in each.
 */
async function costPhase(
  n: number,
  props: Property[],
  window: Out,
): Promise<{ cost: StepResult['cost']; costClean: boolean }> {
  const cost: StepResult['cost'] = new Map();
  const intents: string[] = [];
  const requests: BookingRequest[] = [];
  const codes = new Map<string, string>();
  const paymentUrls: string[] = [];
  const registered: { p: Property; stay: Stay }[] = [];
  /** Only these doors are read by the next tick: every other lock of the step waits. */
  const onlyDoors = async (doors: { tenantId: string; device: string }[]) => {
    await freezeDoors(
      admin,
      props.map((p) => p.tenantId),
    );
    await admin.query(
      `update lock_record_cursors c set next_poll_at = null
         from unnest($1::uuid[], $2::text[]) as x(t, d), locks l
        where l.tenant_id = x.t and l.device_id = x.d and c.tenant_id = l.tenant_id and c.lock_id = l.id`,
      [doors.map((d) => d.tenantId), doors.map((d) => d.device)],
    );
  };
  /** Waits until `count` reads were stored since the phase began (at most 30 s). */
  const readsDone = async (count: number) => {
    const deadline = performance.now() + 30_000;
    while ((await lockReads()) < count && performance.now() < deadline) await sleep(200);
  };
  // What the system spends idle (relay polling, heartbeats, cron): subtracted from each kind's phase.
  // A backlog left by the window is worked off first (up to 90 s), or it would be counted as the kinds' cost.
  const costClean = await drain(90);
  // Idle is measured before and after the kinds, and the lower of the two taken per part: a cron job
  // (the lock check, the expiry sweep) that happens to run in one of them is not idle.
  const idleRate = async () => {
    const i0 = cpuNow();
    const idleStart = performance.now();
    await sleep(3000);
    return cpuPerOp(i0, cpuNow(), performance.now() - idleStart);
  };
  const idleBefore = await idleRate();
  guestsAtDoors = false;
  /** Runs `op` `limit` times, four at a time. */
  const fourAtATime = async (limit: number, op: (i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < limit) await op(next++);
      }),
    );
  };
  /** Feeds across the properties in turn, `count` of them, none changed in the window or before (304s). */
  const quietFeeds = (count: number) => {
    const all = props.flatMap((p) => p.feeds.filter((f) => !f.changed));
    return all.slice(0, count);
  };
  /** Waits until every feed in `feeds` was fetched since it was armed (at most 30 s). */
  const fetched = async (feeds: DayFeed[]) => {
    const deadline = performance.now() + 30_000;
    while (feeds.some((f) => f.due.length > 0) && performance.now() < deadline) await sleep(100);
    for (const f of feeds) f.due = [];
  };
  const phases: {
    kind: Kind;
    ops: number;
    spent: CpuRow;
    phaseMs: number;
    statements: Statements;
    nested: Statements;
  }[] = [];
  for (const kind of KINDS) {
    progress(`N=${n}: cost of ${kind}`);
    await drain(15);
    await resetStatements();
    const c0 = cpuNow();
    const phaseStart = performance.now();
    const costOut = newOut();
    current = costOut;
    let ops = 0;
    // Round robin over the properties from where the window stopped: no stay is checked in twice.
    const prop = (i: number) => props[(Math.round(n * perHour(kind)) + i) % props.length]!;
    switch (kind) {
      case 'check-in':
      case 'check-out': {
        // Arrivals and departures left after the window (5 of 20 per property went in it).
        const limit = Math.min(COST_OPS, props.length * (ARRIVALS - perHour(kind)));
        await fourAtATime(limit, (i) => operate(kind, prop(i), costOut, 0));
        ops = costOut.samples.length;
        break;
      }
      case 'API booking group':
        // Its payment is measured on its own next: held back (-1).
        await fourAtATime(COST_OPS, (i) => operate(kind, prop(i), costOut, -1));
        intents.push(...lastIntents.splice(0));
        ops = costOut.samples.length;
        break;
      case 'stripe payment':
        await fourAtATime(COST_OPS, (i) => operate(kind, prop(i), costOut, 0, intents.shift() ?? 'pi_day_none'));
        ops = costOut.samples.length;
        break;
      case 'booking request': {
        await fourAtATime(COST_OPS, async (i) => {
          const request = await requestBooking(prop(i), costOut);
          if (request) requests.push(request);
        });
        ops = costOut.samples.length;
        // The mails are part of a request's cost: the phase ends when they are in the catcher.
        await Promise.all(
          requests.map(async (r) => {
            const code = await codeOf(r, costOut, 30_000);
            if (code) codes.set(r.id, code);
          }),
        );
        break;
      }
      case 'booking confirm':
        await fourAtATime(requests.length, async (i) => {
          const request = requests[i]!;
          const url = codes.has(request.id) ? await confirmBooking(request, codes.get(request.id)!, costOut) : null;
          if (url) paymentUrls.push(url);
        });
        ops = costOut.samples.length;
        break;
      case 'checkout webhook ack': {
        await fourAtATime(paymentUrls.length, (i) => pay(paymentUrls[i]!));
        ops = costOut.samples.length;
        break;
      }
      case 'registration': {
        // Self arrivals left after the window.
        const left = props.flatMap((p) => p.selfArrivals.slice(p.nextSelf).map((stay) => ({ p, stay })));
        await fourAtATime(Math.min(COST_OPS, left.length), async (i) => {
          if (await register(left[i]!.stay, costOut)) registered.push(left[i]!);
        });
        ops = costOut.samples.length;
        break;
      }
      case 'self check-in':
        await fourAtATime(registered.length, (i) => checkInSelf(registered[i]!.p, registered[i]!.stay, costOut));
        ops = costOut.samples.length;
        break;
      case 'lock record read': {
        // A read costs a few milliseconds: at least CHEAP_OPS of them, in rounds over the step's doors (every door
        // read each round, as the cron reads them; a door's day of records re-read each time).
        const doors = props
          .flatMap((p) => [p.entranceDevice, ...p.roomDevices].map((device) => ({ tenantId: p.tenantId, device })))
          .slice(0, CHEAP_OPS);
        await onlyDoors(doors);
        for (let done = 0; done < CHEAP_OPS;) {
          await readDoors(watcher);
          await readsDone(done + doors.length);
          const now = await lockReads();
          if (now === done) break;
          done = now;
        }
        ops = await lockReads();
        await freezeDoors(
          admin,
          props.map((p) => p.tenantId),
        );
        break;
      }
      case 'door entry': {
        // A code opens COST_OPS room doors of guests who checked in during the window; a read of each door stores it.
        const codes = window.doorCodes.slice(0, COST_OPS);
        await fourAtATime(codes.length, async (i) => {
          const { p, room, pin } = codes[i]!;
          await openDoor(p.tenantId, p.roomDevices[room]!, pin, costOut);
        });
        await onlyDoors(codes.map(({ p, room }) => ({ tenantId: p.tenantId, device: p.roomDevices[room]! })));
        await readDoors(watcher);
        await entryLatencies(costOut.openings, 30);
        ops = costOut.openings.length;
        await freezeDoors(
          admin,
          props.map((p) => p.tenantId),
        );
        break;
      }
      case 'iCal poll': {
        // A poll costs a few milliseconds: at least CHEAP_OPS of them, in rounds over the quiet feeds.
        const feeds = quietFeeds(CHEAP_OPS);
        for (let round = 0; feeds.length > 0 && costOut.samples.length < CHEAP_OPS; round++) {
          const before = costOut.samples.length;
          await arm(watcher, feeds);
          await fetched(feeds);
          if (costOut.samples.length === before || round > CHEAP_OPS) break; // the workers are not polling
        }
        ops = costOut.samples.length;
        break;
      }
      case 'iCal change': {
        // A new stay in each of COST_OPS feeds, and the poll that books it (its cost includes the poll's).
        const feeds = quietFeeds(COST_OPS);
        for (const feed of feeds) {
          const event = slotEvent(feed.id, feed.nextSlot++);
          setFeedEvents(feed, [...feed.events, event]);
          feed.changed = true;
        }
        await arm(watcher, feeds);
        await fetched(feeds);
        ops = feeds.length;
        break;
      }
      default:
        await fourAtATime(COST_OPS, (i) => operate(kind, prop(i), costOut, 0));
        ops = costOut.samples.length;
    }
    await drain(15);
    const spent = cpuPerOp(c0, cpuNow(), 1);
    const phaseMs = performance.now() - phaseStart;
    phases.push({
      kind,
      ops,
      spent,
      phaseMs,
      statements: await topStatements(3),
      nested: await topStatements(NESTED_LIMIT, true),
    });
  }
  current = newOut();
  guestsAtDoors = true;
  const idleAfter = await idleRate();
  const idle = (part: string) => Math.min(cpuOf(idleBefore, part), cpuOf(idleAfter, part));
  const perOp = (list: Statements, ops: number) =>
    list.map((s) => ({ ...s, ms: s.ms / Math.max(1, ops), calls: s.calls / Math.max(1, ops) }));
  for (const { kind, ops, spent, phaseMs, statements, nested } of phases)
    cost.set(kind, {
      ops,
      cpu: spent.map(({ part, ms }) => ({ part, ms: Math.max(0, ms - idle(part) * phaseMs) / Math.max(1, ops) })),
      statements: perOp(statements, ops),
      nested: perOp(nested, ops),
    });
  return { cost, costClean };
}

/** Samples pg_stat_activity until stopped: the average number of the app's connections in each state / wait. */
function sampleWaits(): { stop: () => Promise<string> } {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await admin.query(
        `select case when state = 'active' then coalesce(wait_event_type || ':' || wait_event, 'running')
                     else state || coalesce(' (' || wait_event || ')', '') end as what, count(*)::int as n
           from pg_stat_activity where datname = current_database() and usename <> 'postgres' and state <> 'idle'
          group by 1`,
      );
      samples++;
      for (const row of rows) counts.set(row.what, (counts.get(row.what) ?? 0) + row.n);
      await sleep(500);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const list = [...counts]
        .map(([what, n]) => ({ what, avg: n / Math.max(1, samples) }))
        .filter((x) => x.avg >= 0.05)
        .sort((a, b) => b.avg - a.avg);
      return list.length ? list.map((x) => `${x.what} ${x.avg.toFixed(1)}`).join(', ') : 'none busy';
    },
  };
}

// pg_stat_statements (loaded by the bench: shared_preload_libraries, then a restart before any traffic).
let statementsOn = false;
const NESTED = process.env.DAY_STATEMENTS_TRACK === 'all';
/** How many statements inside functions each kind lists (DAY_STATEMENTS_TRACK=all). */
const NESTED_LIMIT = Number(process.env.DAY_STATEMENTS_NESTED ?? 3);
async function resetStatements(): Promise<void> {
  if (statementsOn) await admin.query('select pg_stat_statements_reset()');
}
/** Lock record reads completed since the statistics were reset: each moves its lock's cursor, a row of a tenant's one statement (lib/locks/poll-lock-records.ts). */
async function lockReads(): Promise<number> {
  if (!statementsOn) return 0;
  const { rows } = await admin.query<{ n: number }>(
    `select coalesce(sum(rows), 0)::int as n from pg_stat_statements
      where query like '%insert into lock_record_cursors (tenant_id, lock_id, read_until%'`,
  );
  return rows[0]!.n;
}
/** The top-level statements PostgreSQL spent the most time on (execution and planning), the bench's own left out. */
async function topStatements(limit: number, nested = false): Promise<Statements> {
  if (!statementsOn || (nested && !NESTED)) return [];
  const { rows } = await admin.query(
    `select regexp_replace(left(query, 110), '\\s+', ' ', 'g') as query, calls::int,
            total_exec_time + total_plan_time as ms
       from pg_stat_statements
      where toplevel = ${!nested} and query not like '%pg_stat_statements%' and query not like '%ical_feeds set next_fetch_at = now()%'
        and query not like '%graphile_worker.add_job(%' and query not like '%unnest($1::uuid[], $2::text[]) as x(t, occasion)%'
        and query not like '%graphile_worker._private_jobs where run_at <= now()%'
      order by 3 desc limit ${limit}`,
  );
  return rows;
}

process.env.TRUST_PROXY = '1';
// The channels' feeds are served from this machine's loopback.
process.env.ALLOW_PRIVATE_FETCH = '1';
const loadBefore = (await import('node:os'))
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');
/** The channels' feeds (every room's), served by the bench. */
const feedServer: FeedServer = await startFeeds(onFetch);
const stripeSide = await startStripeSide({
  secret: CHAOS_SECRETS.stripeWebhook,
  webs: () => webs,
  onAck: (ack) => {
    if (ack.type !== 'checkout.session.completed') return;
    current.samples.push({ kind: 'checkout webhook ack', ms: ack.ms, status: ack.status });
    if (ack.status === 200 && ack.bookingGroupId)
      current.paid.push({ bookingGroupId: ack.bookingGroupId, ackAt: ack.at });
  },
});
/** The bench's system: its PostgreSQL loads pg_stat_statements (a restart before anything else connects). */
class DaySystem extends System {
  private restarted = process.env.DAY_STATEMENTS === '0';
  override async startDatabase(): Promise<void> {
    await super.startDatabase();
    if (this.restarted) return;
    this.restarted = true;
    const client = new pg.Client({ connectionString: this.cluster.adminUrl('postgres') });
    await client.connect();
    await client.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
    // DAY_STATEMENTS_TRACK=all also counts the statements inside functions (listed per kind of the cost phase).
    await client.query(`alter system set pg_stat_statements.track = '${NESTED ? 'all' : 'top'}'`);
    await client.end();
    await this.stopDatabase();
    await super.startDatabase();
  }
  /** Web and workers pay through the bench's Stripe stand-in, as the launcher's own (tooling/config/child-env.ts). */
  override env(kind: ChildKind, overrides: Partial<ChildSettings> = {}): NodeJS.ProcessEnv {
    return super.env(kind, {
      stripeStandin: {
        port: Number(new URL(stripeSide.standin.url).port),
        webhookUrl: stripeSide.webhookUrl,
        webhookSecret: CHAOS_SECRETS.stripeWebhook,
        apiKey: stripeSide.standin.apiKey,
      },
      ...overrides,
    });
  }
}
const system = new DaySystem('bench-day');
const startedAt = new Date();
progress('starting the system');
await system.start({ webs: 2, workers: 2 });
progress('system started');
// As the launcher runs them (WORKER_NICE, default 10): acknowledgements before background work.
for (const worker of system.workers)
  if (worker?.pid) (await import('node:os')).setPriority(worker.pid, Number(process.env.WORKER_NICE ?? 10));
const admin = new pg.Client({ connectionString: system.adminUrl });
await admin.connect();
/** The bench's second connection: the poll cron's ticks and the code mails, never waiting behind the admin's reads. */
const watcher = new pg.Client({ connectionString: system.adminUrl });
await watcher.connect();
if (process.env.DAY_STATEMENTS !== '0') {
  await admin.query('create extension if not exists pg_stat_statements');
  statementsOn = true;
}
webs = system.webs.map((_, i) => new Pool(system.webUrl(i), { connections: 128 }));
process.env.TEST_ADMIN_URL = system.adminUrl;
const codeWatch = watchCodes(watcher);

// Warm up (JIT, pools, prepared statements) with a small day, untimed.
{
  const warm = await seed(admin, 4, 'warm-up');
  progress('warm-up seeded');
  await programDepartures(warm, 3);
  progress('warm-up: departures programmed');
  const out = newOut();
  current = out;
  for (let round = 0; round < 3; round++) {
    await Promise.all(PLANNED.map((k) => operate(k, pick(warm), out, 0)));
    await Promise.all(
      warm.map((p) =>
        openDoor(p.tenantId, deviceOf(p, p.departures[round]!.room, 'room'), p.departures[round]!.pin, out),
      ),
    );
    changeFeed(pick(warm), 'add', out);
    await arm(
      watcher,
      warm.flatMap((p) => p.feeds),
    );
    await readDoors(watcher);
    await sleep(2000);
  }
  progress('warm-up: operations sent');
  const ticks = setInterval(() => void readDoors(watcher), TICK_MS);
  await Promise.all(out.pending);
  progress('warm-up: follow-ups done');
  await entryLatencies(out.openings, 10);
  clearInterval(ticks);
  await freezeDoors(
    watcher,
    warm.map((p) => p.tenantId),
  );
  const bad = out.samples.filter((s) => !ok(s));
  if (bad.length) process.stdout.write(`warm-up: ${bad.map((s) => `${s.kind} ${s.status}`).join(', ')}\n`);
  await drain(30);
  for (const feed of warm.flatMap((p) => p.feeds)) feed.due = [];
}

const results: StepResult[] = [];
const p99Of = (r: StepResult, kinds: Kind[]) =>
  pct(
    kinds.flatMap((k) => r.byKind.get(k) ?? []).map((s) => s.ms),
    0.99,
  );
/** The user-visible targets a step broke: the three of the runs before, then the ones the new operations brought. */
const breaks = (r: StepResult) => {
  const broken: string[] = [];
  if (p99Of(r, ['guest page open', 'guest status poll']) > TARGETS.guestP99) broken.push('guest page p99 > 1 s');
  if (p99Of(r, ACKS) > TARGETS.ackP99) broken.push('webhook acknowledgement p99 > 1 s');
  if (pct(r.sync, 0.99) > TARGETS.keySync) broken.push('key sync p99 > 10 s');
  if (p99Of(r, GUEST_ACTIONS) > TARGETS.guestActionP99) broken.push('guest actions p99 > 1 s');
  if (pct(r.codeMail, 0.99) > TARGETS.codeMail) broken.push('booking code mail p99 > 10 s');
  if (pct(r.paid, 0.99) > TARGETS.paid) broken.push('checkout → paid p99 > 10 s');
  return broken;
};
const MAX_N = Number(process.env.DAY_MAX_N ?? 4000);
const steps = [...STEPS];
let bisections = Number(process.env.DAY_BISECT ?? 1);
while (steps.length > 0) {
  const n = steps.shift()!;
  const t0 = performance.now();
  const props = await seed(admin, n, `N${n}`);
  await programDepartures(props, Math.ceil(perHour('check-out')));
  const seedSeconds = (performance.now() - t0) / 1000;
  process.stdout.write(`N=${n}: seeded in ${seedSeconds.toFixed(1)} s; replaying the busiest hour in ${WINDOW_S} s…\n`);
  const result = await runStep(n, props, seedSeconds);
  results.push(result);
  process.stdout.write(`N=${n}: ${report(result)}\n`);
  if (steps.length > 0) continue;
  // After the planned steps: past the last, ×2 until a target breaks; between a held and a broken
  // step, their geometric mean (DAY_BISECT times).
  const held = results.filter((x) => breaks(x).length === 0).map((x) => x.n);
  const broke = results.filter((x) => breaks(x).length > 0).map((x) => x.n);
  const top = Math.max(...results.map((x) => x.n));
  if (broke.length === 0 && top * 2 <= MAX_N) steps.push(top * 2);
  else if (broke.length > 0 && bisections-- > 0) {
    const low = Math.max(0, ...held.filter((h) => h < Math.min(...broke)));
    const high = Math.min(...broke);
    const mid = low > 0 ? Math.round(Math.sqrt(low * high)) : Math.round(high / 3);
    if (mid > low && mid < high && mid >= 1) steps.push(mid);
  }
}

function fmt(value: number): string {
  return Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '∞';
}
function lag(values: number[]): string {
  return `p50 ${fmt(pct(values, 0.5) / 1000)} s, p99 ${fmt(pct(values, 0.99) / 1000)} s`;
}

/** CPU ms of one operation of `kind` by the cost phase, in the parts that are the product (not the outside world). */
function productCpu(r: StepResult, kind: Kind): number {
  return (r.cost.get(kind)?.cpu ?? [])
    .filter((c) => ['PostgreSQL', 'web', 'worker', 'lock simulator'].includes(c.part))
    .reduce((a, c) => a + c.ms, 0);
}

/** A property's busiest hour in CPU ms: each kind's count × its cost (a poll that carries a change costs a change). */
function perPropertyHour(r: StepResult, cpuOfKind: (kind: Kind) => number): number {
  return KINDS.reduce((sum, kind) => {
    // A poll that carries a change, and a read that finds an opening, cost what the change and the entry cost.
    const count =
      kind === 'iCal poll'
        ? perHour('iCal poll') - perHour('iCal change')
        : kind === 'lock record read'
          ? perHour('lock record read') - perHour('door entry')
          : perHour(kind);
    return sum + count * cpuOfKind(kind);
  }, 0);
}

function report(r: StepResult): string {
  const lines = [
    `| operation | per property-hour | count | p50 ms | p99 ms | errors | PostgreSQL CPU ms/op | web CPU ms/op | worker CPU ms/op |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const kind of KINDS) {
    const samples = r.byKind.get(kind) ?? [];
    if (kind === 'lock record read') {
      const cost = r.cost.get(kind);
      const cell = (part: string) => (cost && cost.ops > 0 ? cpuOf(cost.cpu, part).toFixed(2) : '–');
      lines.push(
        `| ${kind} | ${fmt(perHour(kind))} | ${r.reads} | – | – | – | ${cell('PostgreSQL')} | ${cell('web')} | ${cell('worker')} |`,
      );
      continue;
    }
    const errors = samples.filter((s) => !ok(s));
    const statuses = [...new Set(errors.map((s) => s.status))].map((s) => (s === 0 ? 'timeout' : String(s)));
    const cost = r.cost.get(kind);
    const cell = (part: string) => (cost && cost.ops > 0 ? cpuOf(cost.cpu, part).toFixed(2) : '–');
    lines.push(
      `| ${kind} | ${fmt(perHour(kind))} | ${samples.length} | ${fmt(
        pct(
          samples.map((s) => s.ms),
          0.5,
        ),
      )} | ${fmt(
        pct(
          samples.map((s) => s.ms),
          0.99,
        ),
      )} | ${errors.length}${statuses.length ? ` (${statuses.join(', ')})` : ''} | ${cell('PostgreSQL')} | ${cell('web')} | ${cell('worker')} |`,
    );
  }
  const synced = r.sync.filter(Number.isFinite).length;
  // The machine's capacity by the cost phase: CPU (all parts but the outside world) per property-hour.
  const hourMs = perPropertyHour(r, (kind) => productCpu(r, kind));
  const pgHourMs = perPropertyHour(r, (kind) => cpuOf(r.cost.get(kind)?.cpu ?? [], 'PostgreSQL'));
  const capacity = (cpus().length * 3_600_000) / hourMs;
  const broken = breaks(r);
  const share = r.cpuShare
    .filter((c) => c.ms >= 0.01)
    .map((c) => `${c.part} ${(c.ms * 100).toFixed(0)} %`)
    .join(', ');
  const changeLine = (Object.keys(ICAL_CHANGES) as ChangeType[])
    .map((type) => {
      const of = r.changes.filter((c) => c.type === type).map((c) => c.ms);
      const missed = of.filter((ms) => !Number.isFinite(ms)).length;
      return `${of.length} ${type === 'add' ? 'added' : type === 'move' ? 'moved' : 'removed'} (${lag(of)}${missed ? `, ${missed} not applied` : ''})`;
    })
    .join(', ');
  const quote = (list: Statements) =>
    list.map((s) => `\`${s.query.replace(/`/g, "'")}\` ${s.calls.toFixed(1)} calls, ${s.ms.toFixed(2)} ms`).join('; ');
  const byStatements = KINDS.filter((k) => (r.cost.get(k)?.statements.length ?? 0) > 0)
    .map((k) => {
      const { statements, nested } = r.cost.get(k)!;
      return `  - **${k}**: ${quote(statements)}${nested.length ? `; inside functions: ${quote(nested)}` : ''}.`;
    })
    .join('\n');
  return [
    `### N = ${r.n} (${r.n * ROOMS} rooms; ${r.requests} requests in ${r.wallSeconds.toFixed(0)} s = ${(r.requests / r.wallSeconds).toFixed(0)} req/s, and ${r.byKind.get('iCal poll')?.length ?? 0} feed polls; seeded in ${r.seedSeconds.toFixed(0)} s)`,
    '',
    lines.join('\n'),
    '',
    `- Key sync (check-in request, the desk's or the guest's own → \`synced\` on both doors): ${r.sync.length} keys, ${lag(r.sync)}, ${r.sync.length - synced} not synced within ${SETTLE_S} s after the window.`,
    `- Booking code mail (the request's answer → the mail in the catcher): ${r.codeMail.length} mails, ${lag(r.codeMail)}, ${r.codeMail.filter((x) => !Number.isFinite(x)).length} not there within 60 s.`,
    `- Checkout paid (the webhook's acknowledgement → the stay \`confirmed\` and paid): ${r.paid.length} payments, ${lag(r.paid)}, ${r.paid.filter((x) => !Number.isFinite(x)).length} not paid within ${SETTLE_S} s after the window.`,
    `- iCal: polls from the cron's tick to the fetch (the table's iCal poll row), ${r.mergedPolls} of them served by a fetch already queued; changes from the fetch that carried them to the stay booked, moved or cancelled (a removal: the second fetch without it): ${changeLine}.`,
    `- Door entries (a guest's code typed on the simulated lock → its entry, \`recorded_at\`): ${r.entries.length} openings, ${lag(r.entries)}, ${r.entries.filter((x) => !Number.isFinite(x)).length} not stored within ${SETTLE_S} s after the window, ${r.linkedEntries} linked to the key that opened the door; ${r.refusedTries} tries refused because the code was not on the lock yet (tried again a minute later), ${r.lockedOut} guests who never got in. The workers read ${r.reads} lock records pages in the window (every lock of the step each compressed minute: ${fmt(perHour('lock record read'))} reads per property-hour).`,
    `- CPU per property's busiest hour, by the cost phase (PostgreSQL + web + worker + simulator): ${hourMs.toFixed(0)} ms, of it PostgreSQL ${pgHourMs.toFixed(0)} ms; ${cpus().length} cores would be saturated by about ${capacity.toFixed(0)} properties in real time, N ≈ ${(capacity / COMPRESSION).toFixed(0)} at ${COMPRESSION}× — the ceiling a quiet machine would show.`,
    `- CPU during the window, in % of one core (2 cores = 200 %): ${share}.`,
    `- Backlog when the last response came: ${r.backlogAtEnd} ready jobs and unprocessed webhook events; ${r.drainedInSeconds === null ? `not drained within ${SETTLE_S} s` : `drained ${r.drainedInSeconds.toFixed(1)} s later`}.`,
    r.statements.length
      ? `- Statements by PostgreSQL time during the window (pg_stat_statements, top level): ${r.statements
          .map((s) => `\`${s.query.replace(/`/g, "'")}\` ${s.calls} calls, ${s.ms.toFixed(0)} ms`)
          .join('; ')}.`
      : '',
    byStatements
      ? `- Where each kind's PostgreSQL time goes, in its cost phase (the top statements, per operation: calls and PostgreSQL ms, execution and planning; a statement's time includes the functions it calls):\n${byStatements}`
      : '',
    `- Where the application's PostgreSQL connections were during the window (pg_stat_activity every 500 ms; average connections in each state): ${r.waits}.`,
    r.stalledJobs > 0
      ? `- **${r.stalledJobs} jobs stalled**, locked (or behind a queue locked) by a live worker for over a minute after the window: never run, never released (the worker beats, so the dead-worker reaper leaves them), until the process restarts. Not counted as backlog.`
      : '',
    r.costClean
      ? ''
      : `- The window's backlog had not drained 90 s later: the CPU per operation above includes some of it.`,
    `- Targets: ${broken.length ? `**broken**: ${broken.join('; ')}` : 'all held'}.`,
  ]
    .filter(Boolean)
    .join('\n');
}

watching = false;
await codeWatch;
await admin.end();
await watcher.end();
await Promise.all(webs.map((w) => w.close()));
await system.stop();
await stripeSide.close();
await feedServer.close();

results.sort((a, b) => a.n - b.n);
const firstBreak = results.find((r) => breaks(r).length > 0);
const lastHeld = [...results].reverse().find((r) => breaks(r).length === 0 && (!firstBreak || r.n < firstBreak.n));
const verdict = firstBreak
  ? `The first user-visible target to break: **${breaks(firstBreak).join('; ')}** at N = ${firstBreak.n} at ${COMPRESSION}× compression ` +
    `(${lastHeld ? `held at N = ${lastHeld.n}` : 'no smaller N held'}), i.e. the busiest hour of about ${(firstBreak.n * COMPRESSION).toLocaleString('en')} properties ` +
    `(${(firstBreak.n * COMPRESSION * ROOMS).toLocaleString('en')} rooms) in real time${lastHeld ? `; it held for ${(lastHeld.n * COMPRESSION).toLocaleString('en')} properties` : ''}.`
  : `No target broke up to N = ${results.at(-1)?.n} at ${COMPRESSION}× compression, i.e. ${((results.at(-1)?.n ?? 0) * COMPRESSION).toLocaleString('en')} properties in real time.`;
const hourList = PLANNED.map((k) => `${fmt(perHour(k))} ${k}`).join(', ');
const requestsPerHour = REQUESTS.reduce((sum, k) => sum + perHour(k), 0);
const body = `
Command: \`npm run bench:day\` (${STEPS.join(', ')} properties: \`DAY_N\`; window \`DAY_WINDOW_SECONDS=${WINDOW_S}\`; feeds polled every \`DAY_ICAL_POLL_MINUTES=${ICAL_POLL_MINUTES}\` modelled minutes${LOCK_READ_MINUTES === 1 ? '' : `; **what-if**: each lock's records read every \`DAY_LOCK_READ_MINUTES=${LOCK_READ_MINUTES}\` modelled minutes, where the product reads them every minute`}). Two web processes (production build) and two workers (WORKER_CONCURRENCY 4, niced 10 as the launcher's WORKER_NICE), the lock simulator, the local mail catcher and an embedded PostgreSQL 18 with pg_stat_statements, all on this machine; the load generator (undici, round-robin over both web processes), the Stripe stand-in (tooling/stripe-standin, with a proxy that times its webhooks) and the channels' feed server run in the bench's own Node process ("load generator" below: the outside world).
Machine: ${machine()}. Run: ${startedAt.toISOString()}; load average before the run ${loadBefore}.

Traffic model. A property has 30 rooms (26 of them one room type, sold on its booking site; rooms 101–104 take the Calendly, Cal.com and API bookings), each with its own door and the main entrance (a stay's code goes on both doors), a published booking site taking payment online, self check-in with Japan's guest register, and a channel's iCal feed imported into every room. Its day: ${KINDS.map((k) => `${fmt(DAY[k])} ${k}`).join(', ')}. Its busiest hour carries a quarter of each but the feed polls (evenly spread: ${fmt(perHour('iCal poll'))} in the hour, one a room every ${ICAL_POLL_MINUTES} minutes): planned at moments of their own ${hourList}, and ${fmt(perHour('iCal change'))} feed changes (${ICAL_CHANGES.add / 4} new stays, ${ICAL_CHANGES.move / 4} moved by a day, ${ICAL_CHANGES.remove / 4} removed) — ${fmt(requestsPerHour)} requests to UnlockOS per property with the follow-ups. That hour is replayed in ${WINDOW_S} s (**compression ${COMPRESSION}×**), each planned operation at a uniformly random moment, open loop (latency counts from the planned moment, so a slow server cannot slow the load down). Follow-ups: a payment per API group (a signed Stripe \`payment_intent.succeeded\` five minutes after the booking); on the booking site, a request (\`POST /api/public/facilities/{slug}/booking-requests\`, a night or two of the room type 3–62 days ahead), the 6-digit code read from the mail the worker sent to the local mail catcher, the confirmation (\`POST /api/public/booking-requests/{id}/confirm\`: the hold and a Stripe Checkout Session on the tenant's connected account, created through the stripe SDK on the stand-in), a minute (compressed) on the payment page, then the stand-in's signed \`checkout.session.completed\` to \`POST /api/webhooks/stripe\`; a self check-in after each registration (\`PUT /api/guest/{token}/registration\`: two guests, one from abroad with a ${PASSPORT_KB} KiB passport photo; then \`POST /api/guest/{token}/check-in\`). Every guest and booker comes from an address of their own (\`TRUST_PROXY=1\`), with an email of their own. Arrivals for the desk (confirmed, check-in open, a pre-issued key on both doors), self arrivals (the same, checking themselves in at the door), departures (checked in, live key on both doors), every feed (two stays booked, its ETag) are seeded with SQL; bookings also arrive through signed Calendly and Cal.com webhooks (one event type each, mapped to a room) and \`POST /api/v1/booking-groups\` (2 rooms, the caller's \`paymentIntentId\`); the desk's check-in and check-out are the API's; guests open \`GET /k/{token}\` and poll \`GET /api/guest/{token}/status\`; managers read \`GET /api/v1/audit-events?limit=50\`. Each property has its own API key (the API's limit is per key: 100/s, far above one property's rate).
iCal: the feeds are served by the bench (ETag, 304 to a matching If-None-Match, as Airbnb serves them; \`ALLOW_PRIVATE_FETCH=1\`) and fetched by the workers' own \`sync_ical_feed\` jobs. The product's cron adds its poll job once a minute and polls a feed every ICAL_POLL_MINUTES (at least 1); compressed, the bench is the cron: every ${fmt(TICK_MS / 1000)} s (a minute at ${COMPRESSION}×) it sets \`next_fetch_at = now()\` for the feeds whose turn came (each feed every ${(POLL_PERIOD_MS / 1000).toFixed(0)} s from a random offset) and adds one \`poll_ical_feeds\` job, which enqueues them as in production (\`enqueueDueFeeds\`, at most 500 per job).
Doors: every room's door and the entrance are TTLock locks of the simulator (tooling/simulator), which the workers read as the product does since decision 036: the cron's \`poll_door_records\` queues a \`poll_lock_records\` job per tenant with locks due (a queue and a job key of its own) each minute, which reads each due lock's \`/v3/lockRecord/list\` from its cursor minus a day and stores new openings as entries, all the tenant's locks in one transaction. Compressed, the bench adds that job every ${fmt((TICK_MS * LOCK_READ_MINUTES) / 1000)} s (in a queue of its own, so two never run side by side) and freezes the locks of finished steps. A guest types their PIN on the simulated lock (\`POST /_control/locks/{lockId}/open\`, the record uploaded at once as by a reachable gateway): after a check-in (desk or self) the entrance and the room door a (compressed) minute and two later and again 15 and 16 minutes later; a departing guest the room and the entrance two and one minutes before the check-out (their PINs put on the simulator at seeding through the provider's client). A code not on the lock yet is refused and typed again a minute later. Entry ingestion lag is from the lock's record (\`lockDate\`) to the entry's \`recorded_at\`.
Latency is per request; acknowledgement is the webhook route's answer (processing follows in the workers); the checkout webhook's is timed by the proxy between the stand-in and the web. Key sync is from the check-in request (the desk's or the guest's) to the last door's \`set_at\`.
Targets, user-visible: guest page (open and status poll) p99 ≤ 1 s, webhook acknowledgement (Calendly, Cal.com, both Stripe events) p99 ≤ 1 s and key sync p99 ≤ 10 s, as before; the new operations bring guest actions (booking request, confirmation, registration, self check-in) p99 ≤ 1 s, the booking code mail p99 ≤ 10 s and checkout → confirmed and paid p99 ≤ 10 s.
CPU per operation: after the window, each kind runs alone (${COST_OPS} operations, 4 at a time, on the same data; ${CHEAP_OPS} feed polls and lock reads, in rounds, as they cost a few milliseconds; a booking request's phase lasts until its mails are in the catcher, a checkout's until its webhooks are processed, a feed's until its sync job ran) between two readings of /proc, the workers' follow-up (processing the booking, programming the doors, sending the mail) included, so PostgreSQL CPU per operation is attributed by phase, not estimated; the CPU shares during the window are the mixed traffic's.

${results.map(report).join('\n\n')}

${verdict}

How it got here. Until this run the day had no booking site, no self check-in, no iCal feeds and no door record, and it ran without Stripe configured (an API group's intent was then an opaque reference; now the API asks the stand-in for it on the tenant's account, one more call per group). Its last runs (2026-12-02, 05:48 UTC, the table in docs/SCALING.md) broke first between N = 87 and 100 at 60× (guest page p99 and key sync), the machine's two cores full; the history of how it got there from N = 32–57 (the worker's reads and records in one statement, the status poll in the web server's fast lane, formatters once per process) is in the git history of this file and of docs/PERFORMANCE.md.

The same day on 2026-12-06 before the worker's changes of that morning (same machine): at N = 10 a property's busiest hour cost 10.5 CPU-seconds, three quarters of it reading door records, each read a job of its own, and six jobs stayed locked behind their queue after the window (graphile-worker 0.17's batched fetch runs several jobs of one named queue at once and can leave the queue locked: decision 038); with the batched fetch turned off, 20 CPU-seconds, every fetch locking each of the thousands of idle queues a key, a feed and a lock had left behind (44 ms of PostgreSQL per fetch at N = 20). Reading a tenant's doors in one job (decision 036) and removing idle queues every five minutes (decision 038) brought it to the 5.7–7.5 CPU-seconds above; a door read is now about 1 ms of PostgreSQL and worker CPU together, against 8.4 ms. What a property's hour costs now, by the N = 10 cost phase: door reads about 2 CPU-seconds (1,860 a property-hour), iCal polls 0.9, the rest the guests' and the desk's own operations. The fetch (\`with j as (select jobs.job_queue_id …\`) is still PostgreSQL's top statement (1.5 ms a call at N = 10): graphile-worker's fetch locks every free named queue, and one per feed and per live key remain.

How to read the profile. CPU shares count only the processes this bench started (its process tree,
\`processTree()\` in scripts/bench/harness.ts): on a shared machine the rest of the 200 % went to other
work, and the load average above says how much there was. In pg_stat_activity, \`idle in transaction
(ClientRead)\` is a connection holding an open interactive transaction while PostgreSQL waits for the
Node process's next statement: the application process (web or worker) is the bottleneck — busy, or
starved of CPU — and each web process has 10 connections (\`DB_POOL_MAX\`), so once they all wait,
requests queue for a connection (Prisma gives up after 10 s: 500). \`Lock:*\` is contention in the
database (an entrance door's PIN check takes an advisory lock per lock, so a property's key issues
queue there), \`running\` / \`IO:*\` / \`LWLock:WAL*\` are PostgreSQL's own CPU and commits.
Requests not started within 30 s of their planned moment (256 in flight at most) are counted as
timeouts and not sent, so a run past saturation still ends.
`;
writeSection('A synthetic day (bench:day)', body);
process.stdout.write(body);
process.exit(0);
