import type { Actor } from '../audit/actor';
import { holdBookingGroup } from '../bookings/create-booking-group';
import { cancelReservation } from '../bookings/cancel-reservation';
import {
  asService,
  effectStatement,
  runInTransaction,
  runStatements,
  serviceStatement,
  sqlArray,
  sqlLiteral,
  statement,
} from '../db/tx';
import { isAppError } from '../errors';
import { openIncident, openIncidentOnce, resolveIncidentStatement } from '../incidents/incidents';
import { logger } from '../log/logger';
import { changeReservationDates } from '../stays/change-dates';
import { fetchFeed, type FeedValidators } from './fetch-feed';
import { parseFeed, type FeedEvent, type StayTimes } from './parse-feed';

/** How often feeds are fetched (ICAL_POLL_MINUTES, 15 by default; at least 1). */
export function pollMinutes(): number {
  const minutes = Number(process.env.ICAL_POLL_MINUTES ?? 15);
  return Number.isFinite(minutes) && minutes >= 1 ? Math.floor(minutes) : 15;
}

export const CHANNEL_LABELS = { airbnb: 'Airbnb', booking: 'Booking.com', vrbo: 'VRBO', other: 'iCal' } as const;
export type Channel = keyof typeof CHANNEL_LABELS;

type FeedRow = {
  id: string;
  /** One of the two (ical_feeds_one_target): the room, or the room type whose rooms the feed's stays go on. */
  room_id: string | null;
  room_type_id: string | null;
  /** The room's label or the room type's name. */
  target_label: string;
  channel: Channel;
  url: string;
  etag: string | null;
  last_modified: string | null;
  time_zone: string;
  check_in_time: string;
  check_out_time: string;
};

type EventRow = {
  uid: string;
  status: 'booked' | 'rejected' | 'cancelled';
  reservation_id: string | null;
  starts_at: Date;
  ends_at: Date;
  missing: number;
};

export type SyncOutcome = {
  /** `busy`: another sync of the feed holds its lease right now, and this one fetched nothing. */
  status: 'synced' | 'not_modified' | 'failed' | 'gone' | 'busy';
  booked: number;
  moved: number;
  cancelled: number;
  rejected: number;
  reason?: string;
};

const EMPTY = { booked: 0, moved: 0, cancelled: 0, rejected: 0 };

/**
 * How long a sync holds its feed's lease at most: a fetch takes at most 10 s and applying it far less; a process
 * that died mid-sync keeps the feed from being fetched only this long.
 */
export const SYNC_LEASE_SECONDS = 300;

/**
 * One fetch of one feed and what it changes; one at a time per feed, whoever asks (the feed's lease: a sync that
 * finds another one running fetches nothing and answers `busy`).
 * A failed, malformed or empty fetch changes no stay; a failure counts one more on the feed's incident (opened at
 * the first, raised at the 5th and 20th, resolved by the next success). A successful one books each new UID (source
 * `ical`, a pre-issued key like any booking), moves a stay whose dates changed (its keys follow), and cancels a stay
 * whose UID is missing from two successful fetches in a row. An event that overlaps another stay of the room is
 * refused with an incident naming both. Events that ended are left alone.
 */
export async function syncFeed({ tenantId, feedId }: { tenantId: string; feedId: string }): Promise<SyncOutcome> {
  const tenant = sqlLiteral(tenantId, 'uuid');
  const feedLiteral = sqlLiteral(feedId, 'uuid');
  const [leased, feeds, events] = await runStatements({ role: 'app_service', tenantId }, [
    // One sync of a feed at a time, whoever asks (the worker's poll, "fetch now", the API): the feed's lease.
    statement<{ id: string }>(
      `update ical_feeds set syncing_until = now() + make_interval(secs => ${sqlLiteral(SYNC_LEASE_SECONDS, 'int')})
        where tenant_id = ${tenant} and id = ${feedLiteral} and (syncing_until is null or syncing_until <= now())
        returning id`,
    ),
    statement<FeedRow>(
      `select f.id, f.room_id, f.room_type_id, coalesce(r.label, rt.name) as target_label, f.channel, f.url, f.etag,
              f.last_modified, fa.time_zone,
              to_char(fa.check_in_time, 'HH24:MI') as check_in_time, to_char(fa.check_out_time, 'HH24:MI') as check_out_time
         from ical_feeds f
         left join rooms r on r.tenant_id = f.tenant_id and r.id = f.room_id
         left join room_types rt on rt.tenant_id = f.tenant_id and rt.id = f.room_type_id
         join facilities fa on fa.tenant_id = f.tenant_id and fa.id = coalesce(r.facility_id, rt.facility_id)
        where f.tenant_id = ${tenant} and f.id = ${feedLiteral}`,
    ),
    statement<EventRow>(
      `select uid, status, reservation_id, starts_at, ends_at, missing from ical_feed_events
        where tenant_id = ${tenant} and feed_id = ${feedLiteral}`,
    ),
  ]);
  const feed = feeds[0];
  if (!feed) return { status: 'gone', ...EMPTY };
  if (leased.length === 0) return { status: 'busy', ...EMPTY };
  try {
    return await syncLeased(tenantId, feed, events);
  } finally {
    await runStatements({ role: 'app_service', tenantId }, [
      effectStatement(`update ical_feeds set syncing_until = null where tenant_id = ${tenant} and id = ${feedLiteral}`),
    ]);
  }
}

/** `syncFeed`'s work once it holds the feed's lease. */
async function syncLeased(tenantId: string, feed: FeedRow, events: EventRow[]): Promise<SyncOutcome> {
  const tenant = sqlLiteral(tenantId, 'uuid');
  const feedLiteral = sqlLiteral(feed.id, 'uuid');
  const validators: FeedValidators = { etag: feed.etag, lastModified: feed.last_modified };
  const fetched = await fetchFeed(feed.url, validators);
  if (fetched.status === 'failed') return failed(tenantId, feed, fetched.reason);
  const times: StayTimes = {
    timeZone: feed.time_zone,
    checkInTime: feed.check_in_time,
    checkOutTime: feed.check_out_time,
  };
  let seen: FeedEvent[] | null = null;
  if (fetched.status === 'ok') {
    const parsed = parseFeed(fetched.body, times);
    if (!parsed.ok) return failed(tenantId, feed, 'the answer is not an iCalendar feed');
    seen = parsed.events;
  }
  await succeeded(tenantId, feed, fetched.status === 'ok' ? fetched.validators : validators);
  // An empty feed is more likely a channel's hiccup than every booking cancelled at once: it changes nothing.
  if (seen !== null && seen.length === 0) return { status: 'synced', ...EMPTY };
  const outcome = { ...EMPTY };
  const actor: Actor = { type: 'provider', id: feed.id, label: CHANNEL_LABELS[feed.channel] ?? 'iCal' };
  const known = new Map(events.map((e) => [e.uid, e]));
  const now = Date.now();
  if (seen) {
    for (const event of seen) {
      if (event.endsAt.getTime() <= now) continue;
      const row = known.get(event.uid);
      try {
        if (!row || row.status !== 'booked') {
          outcome[(await book(tenantId, feed, event, row, actor)) ? 'booked' : 'rejected']++;
        } else if (
          row.starts_at.getTime() !== event.startsAt.getTime() ||
          row.ends_at.getTime() !== event.endsAt.getTime()
        ) {
          if (await move(tenantId, feed, event, row, actor)) outcome.moved++;
          else outcome.rejected++;
        } else if (row.missing > 0) {
          await setMissing(tenantId, feed.id, event.uid, 0);
        }
      } catch (error) {
        logger.error({ err: error, tenantId, feedId: feed.id }, 'ical event could not be applied');
      }
    }
  }
  // Missing from this fetch (a 304 is the last fetch's content again): counted; the second time in a row cancels.
  const present = seen ? new Set(seen.map((e) => e.uid)) : null;
  for (const row of events) {
    if (row.status !== 'booked' || row.ends_at.getTime() <= now) continue;
    const missing = present ? !present.has(row.uid) : row.missing > 0;
    if (!missing) continue;
    if (row.missing + 1 < 2) {
      await setMissing(tenantId, feed.id, row.uid, row.missing + 1);
      continue;
    }
    await cancelReservation({ tenantId, reservationId: row.reservation_id!, reason: 'ical_removed', actor }).catch(
      (error: unknown) => {
        // Already cancelled or checked out at the desk: nothing left to cancel.
        if (!isAppError(error)) throw error;
      },
    );
    await asService({ tenantId }, (tx) =>
      runInTransaction(tx, [
        effectStatement(`update ical_feed_events set status = 'cancelled', missing = 2, updated_at = now()
          where tenant_id = ${tenant} and feed_id = ${feedLiteral} and uid = ${sqlLiteral(row.uid, 'text')}`),
      ]),
    );
    outcome.cancelled++;
  }
  return { status: fetched.status === 'ok' ? 'synced' : 'not_modified', ...outcome };
}

/** "room 101" or "room type Twin": what the feed imports into, for incidents. */
const targetName = (feed: FeedRow) => (feed.room_id ? `room ${feed.target_label}` : `room type ${feed.target_label}`);

/** The rooms a feed's new stay may go on, in the order they are tried: its room, or its room type's live rooms. */
async function candidateRooms(tenantId: string, feed: FeedRow): Promise<string[]> {
  if (feed.room_id) return [feed.room_id];
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ id: string }>(
      `select id from rooms where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
          and room_type_id = ${sqlLiteral(feed.room_type_id, 'uuid')} and archived_at is null
        order by label, id`,
    ),
  ]);
  return rows.map((r) => r.id);
}

async function setMissing(tenantId: string, feedId: string, uid: string, missing: number): Promise<void> {
  await runStatements({ role: 'app_service', tenantId }, [
    effectStatement(`update ical_feed_events set missing = ${sqlLiteral(missing, 'int')}, updated_at = now()
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and feed_id = ${sqlLiteral(feedId, 'uuid')}
        and uid = ${sqlLiteral(uid, 'text')}`),
  ]);
}

/** Writes what became of a feed event (its row), keyed by feed and UID. */
function eventUpsert(
  tenantId: string,
  feedId: string,
  event: FeedEvent,
  status: EventRow['status'],
  reservationId: string | null,
) {
  return effectStatement(`insert into ical_feed_events (tenant_id, feed_id, uid, status, reservation_id, starts_at, ends_at, missing)
    values (${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(feedId, 'uuid')}, ${sqlLiteral(event.uid, 'text')},
            ${sqlLiteral(status, 'text')}, ${sqlLiteral(reservationId, 'uuid')},
            ${sqlLiteral(event.startsAt, 'timestamptz')}, ${sqlLiteral(event.endsAt, 'timestamptz')}, 0)
    on conflict (tenant_id, feed_id, uid) do update set status = excluded.status,
      reservation_id = coalesce(excluded.reservation_id, ical_feed_events.reservation_id),
      starts_at = excluded.starts_at, ends_at = excluded.ends_at, missing = 0, updated_at = now()`);
}

/** The stays of the rooms overlapping a window (what a refused event collides with), for the incident. */
async function overlapping(tenantId: string, roomIds: string[], event: FeedEvent) {
  if (roomIds.length === 0) return [];
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ id: string; room_id: string; source: string; starts_at: Date; ends_at: Date }>(
      `select id, room_id, source::text as source, starts_at, ends_at from reservations
        where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and room_id = any(${sqlArray(roomIds, 'uuid')})
          and status in ('confirmed', 'checked_in')
          and starts_at < ${sqlLiteral(event.endsAt, 'timestamptz')} and ends_at > ${sqlLiteral(event.startsAt, 'timestamptz')}
        order by starts_at limit 5`,
    ),
  ]);
  return rows.map((r) => ({
    reservationId: r.id,
    roomId: r.room_id,
    source: r.source,
    startsAt: r.starts_at.toISOString(),
    endsAt: r.ends_at.toISOString(),
  }));
}

/** A double booking across channels, caught: the feed event is not booked, and the incident names both stays. */
async function refuse(tenantId: string, feed: FeedRow, event: FeedEvent, change: 'new' | 'moved', roomIds: string[]) {
  const others = await overlapping(tenantId, roomIds, event);
  const channel = CHANNEL_LABELS[feed.channel] ?? 'iCal';
  await asService({ tenantId }, (tx) =>
    openIncidentOnce(tx, {
      tenantId,
      conditionKey: `ical_conflict:${feed.id}:${event.uid}`,
      kind: 'ical_conflict',
      severity: 'critical',
      summary:
        change === 'new'
          ? feed.room_id
            ? `A ${channel} booking for ${targetName(feed)} overlaps a stay already on the room; it was not booked here. Resolve the double booking with the guests.`
            : `A ${channel} booking for ${targetName(feed)} finds every room of the type taken; it was not booked here. Resolve the double booking with the guests.`
          : `A ${channel} booking for ${targetName(feed)} moved onto a stay already on its room; its old dates were kept.`,
      detail: {
        feedId: feed.id,
        channel: feed.channel,
        roomId: feed.room_id,
        roomTypeId: feed.room_type_id,
        uid: event.uid,
        startsAt: event.startsAt.toISOString(),
        endsAt: event.endsAt.toISOString(),
        overlaps: others,
      },
      occurrenceId: `${event.uid}:${event.startsAt.toISOString()}:${event.endsAt.toISOString()}`,
    }),
  );
}

/**
 * Books a UID as a stay on the feed's room, or on the first of its room type's rooms the database lets in (each try
 * is the one atomic hold every booking uses: the rooms' exclusion constraint decides, never a read-then-write);
 * false when every room is taken (refused with an incident).
 */
async function book(tenantId: string, feed: FeedRow, event: FeedEvent, row: EventRow | undefined, actor: Actor) {
  // A UID booked before and cancelled since gets a reference of its own: the first one stays with the old stay.
  const externalRef = row?.reservation_id ? `${event.uid}#${Date.now()}` : event.uid;
  const rooms = await candidateRooms(tenantId, feed);
  for (const roomId of rooms) {
    try {
      const group = await holdBookingGroup({
        tenantId,
        actor,
        guest: { name: `${CHANNEL_LABELS[feed.channel] ?? 'iCal'} guest` },
        reservations: [{ roomId, startsAt: event.startsAt, endsAt: event.endsAt }],
        source: 'ical',
        externalRef,
      });
      await runStatements({ role: 'app_service', tenantId }, [
        eventUpsert(tenantId, feed.id, event, 'booked', group.reservations[0]!.id),
        resolveIncidentStatement({ tenantId, conditionKey: `ical_conflict:${feed.id}:${event.uid}` }),
      ]);
      return true;
    } catch (error) {
      if (!isAppError(error) || error.code !== 'room_unavailable') {
        // The same reference booked by a sync that ran beside this one: nothing more to try.
        if (isAppError(error) && error.code === 'conflict') break;
        throw error;
      }
    }
  }
  await runStatements({ role: 'app_service', tenantId }, [eventUpsert(tenantId, feed.id, event, 'rejected', null)]);
  await refuse(tenantId, feed, event, 'new', rooms);
  return false;
}

/** Moves a booked UID's stay to the feed's new dates (keys follow); false when the room is taken then. */
async function move(tenantId: string, feed: FeedRow, event: FeedEvent, row: EventRow, actor: Actor) {
  try {
    await changeReservationDates({
      tenantId,
      reservationId: row.reservation_id!,
      startsAt: event.startsAt,
      endsAt: event.endsAt,
      actor,
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === 'room_unavailable') {
      // A stay of a room type's feed keeps its room when its dates change (its keys are on that room's doors).
      await refuse(tenantId, feed, event, 'moved', feed.room_id ? [feed.room_id] : await stayRoom(tenantId, row));
      return false;
    }
    // The stay was cancelled or ended at the desk: the feed's change has nothing to move.
    logger.info({ tenantId, feedId: feed.id, code: error.code }, 'ical change not applied');
    return false;
  }
  await runStatements({ role: 'app_service', tenantId }, [
    eventUpsert(tenantId, feed.id, event, 'booked', row.reservation_id),
    resolveIncidentStatement({ tenantId, conditionKey: `ical_conflict:${feed.id}:${event.uid}` }),
  ]);
  return true;
}

/** The room a booked UID's stay is on (for a room type's feed, whichever room it was booked on). */
async function stayRoom(tenantId: string, row: EventRow): Promise<string[]> {
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ room_id: string }>(
      `select room_id from reservations where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
          and id = ${sqlLiteral(row.reservation_id, 'uuid')}`,
    ),
  ]);
  return rows.map((r) => r.room_id);
}

async function succeeded(tenantId: string, feed: FeedRow, validators: FeedValidators): Promise<void> {
  await runStatements({ role: 'app_service', tenantId }, [
    effectStatement(`update ical_feeds set failures = 0, last_error = null, last_fetched_at = now(), last_success_at = now(),
        etag = ${sqlLiteral(validators.etag, 'text')}, last_modified = ${sqlLiteral(validators.lastModified, 'text')}
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(feed.id, 'uuid')}`),
    resolveIncidentStatement({ tenantId, conditionKey: `ical_fetch:${feed.id}` }),
  ]);
}

/** A failed fetch: counted on the feed and on its one open incident (alerts at 1, 5 and 20 in a row). */
async function failed(tenantId: string, feed: FeedRow, reason: string): Promise<SyncOutcome> {
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{
      failures: number;
    }>(`update ical_feeds set failures = failures + 1, last_error = ${sqlLiteral(reason, 'text')},
        last_fetched_at = now()
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(feed.id, 'uuid')} returning failures`),
  ]);
  const failures = rows[0]?.failures ?? 1;
  const channel = CHANNEL_LABELS[feed.channel] ?? 'iCal';
  await asService({ tenantId }, (tx) =>
    openIncident(tx, {
      tenantId,
      conditionKey: `ical_fetch:${feed.id}`,
      kind: 'ical_fetch_failed',
      severity: failures >= 5 ? 'critical' : 'warning',
      summary:
        failures === 1
          ? `The ${channel} calendar of ${targetName(feed)} could not be fetched: ${reason}. Its bookings are not up to date.`
          : `The ${channel} calendar of ${targetName(feed)} has failed ${failures} times in a row: ${reason}.`,
      detail: {
        feedId: feed.id,
        roomId: feed.room_id,
        roomTypeId: feed.room_type_id,
        channel: feed.channel,
        failures,
        reason,
      },
    }),
  );
  return { status: 'failed', ...EMPTY, reason };
}

/** The most feeds one statement of the poll enqueues: each stays bounded, and the poll repeats it until none is due. */
export const FEED_BATCH = 500;

/**
 * The feeds due (next_fetch_at passed), each given a sync job in its own queue (so one feed's syncs never run side by
 * side) and its next time, across tenants: the worker's once-a-minute poll. Statements of at most `batch` feeds, as
 * many as it takes: with one statement of 500 a minute, an install polled at most 7,500 feeds every 15 minutes and
 * any more fell behind (docs/SCALING.md).
 */
export async function enqueueDueFeeds(batch = FEED_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await serviceStatement(
      statement<{ n: number }>(
        `with due as (
           select tenant_id, id from ical_feeds where next_fetch_at <= now()
            order by next_fetch_at limit $2::int for update skip locked),
         next as (
           update ical_feeds f set next_fetch_at = now() + make_interval(mins => $1::int)
             from due where f.tenant_id = due.tenant_id and f.id = due.id
           returning f.tenant_id, f.id)
         select count(app_enqueue_job('sync_ical_feed', jsonb_build_object('tenantId', tenant_id, 'feedId', id),
                                      'ical:' || id, 'ical:' || id))::int as n from next`,
      ),
      [pollMinutes(), batch],
    );
    const queued = rows[0]?.n ?? 0;
    total += queued;
    if (queued < batch) return total;
  }
}

/** "Fetch now": the feed's sync job at once (the same queue and key as the poll's, so never two side by side). */
export async function enqueueFeedNow({ tenantId, feedId }: { tenantId: string; feedId: string }): Promise<boolean> {
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<{ id: string }>(
      `select f.id, app_enqueue_job('sync_ical_feed', jsonb_build_object('tenantId', f.tenant_id, 'feedId', f.id),
                                    'ical:' || f.id, 'ical:' || f.id)
         from ical_feeds f where f.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and f.id = ${sqlLiteral(feedId, 'uuid')}`,
    ),
  ]);
  return rows.length === 1;
}
