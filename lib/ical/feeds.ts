import { z } from 'zod';
import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, withTenant, type Tx } from '../db/tx';
import { AppError } from '../errors';
import { decodeCursor, encodeCursor } from '../paging/cursor';
import { CHANNEL_LABELS, enqueueFeedNow, syncFeed, type Channel } from './sync-feed';

export const ZIcalFeedInputSchema = z.object({
  url: z
    .string()
    .trim()
    .max(2000, 'At most 2000 characters.')
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
      } catch {
        return false;
      }
    }, 'Enter the calendar’s http or https address (the “export” link the channel shows).'),
  channel: z.enum(['airbnb', 'booking', 'vrbo', 'other']).default('other'),
});

/**
 * `POST /api/v1/ical-feeds`: a feed and what it imports into, one room or one room type (exactly one of the two), in
 * the body rather than the path.
 */
export const ZIcalFeedCreateBodySchema = z
  .object({
    roomId: z.uuid().optional(),
    roomTypeId: z.uuid().optional(),
    url: ZIcalFeedInputSchema.shape.url,
    channel: ZIcalFeedInputSchema.shape.channel,
  })
  .strict()
  .refine((body) => (body.roomId === undefined) !== (body.roomTypeId === undefined), {
    message: 'give roomId or roomTypeId, not both',
    path: ['roomId'],
  });

/** A feed as its room's page shows it: never its whole URL (it is the channel's secret), only its host. */
export type IcalFeedView = {
  id: string;
  /** What it imports into: one of the two. */
  roomId: string | null;
  roomTypeId: string | null;
  channel: Channel;
  channelLabel: string;
  host: string;
  lastFetchedAt: Date | null;
  lastSuccessAt: Date | null;
  failures: number;
  lastError: string | null;
  stays: number;
};

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

/** What a feed imports into: one room, or a room type (each UID on the first of its rooms free for it). */
export type FeedTarget = { roomId: string } | { roomTypeId: string };

const targetWhere = (target: FeedTarget) =>
  'roomId' in target ? { roomId: target.roomId } : { roomTypeId: target.roomTypeId };

/** The target's label for audit rows (a room's label, a room type's name), or null when it is not the tenant's. */
async function targetLabel(tx: Tx, tenantId: string, target: FeedTarget): Promise<string | null> {
  if ('roomId' in target) {
    const room = await tx.room.findFirst({ where: { tenantId, id: target.roomId }, select: { label: true } });
    return room?.label ?? null;
  }
  const type = await tx.roomType.findFirst({ where: { tenantId, id: target.roomTypeId }, select: { name: true } });
  return type?.name ?? null;
}

const notFound = (target: FeedTarget) =>
  new AppError('not_found', 'roomId' in target ? 'No such room.' : 'No such room type.');

/** The import feeds of one of the tenant's rooms or room types, oldest first, with the stays each has booked. */
export async function listIcalFeeds({
  tenantId,
  ...target
}: { tenantId: string } & FeedTarget): Promise<IcalFeedView[]> {
  return withTenant({ tenantId }, async (tx) => {
    if ((await targetLabel(tx, tenantId, target)) === null) throw notFound(target);
    const feeds = await tx.icalFeed.findMany({
      where: { tenantId, ...targetWhere(target) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return feedViews(tx, tenantId, feeds);
  });
}

type FeedRecord = {
  id: string;
  roomId: string | null;
  roomTypeId: string | null;
  channel: string;
  url: string;
  lastFetchedAt: Date | null;
  lastSuccessAt: Date | null;
  failures: number;
  lastError: string | null;
};

/** Feed rows as listed, with the stays each has booked (one query for all of them). */
async function feedViews(tx: Tx, tenantId: string, feeds: FeedRecord[]): Promise<IcalFeedView[]> {
  const counts =
    feeds.length === 0
      ? []
      : await tx.icalFeedEvent.groupBy({
          by: ['feedId'],
          where: { tenantId, feedId: { in: feeds.map((f) => f.id) }, status: 'booked' },
          _count: { _all: true },
        });
  const stays = new Map(counts.map((c) => [c.feedId, c._count._all]));
  return feeds.map((f) => ({
    id: f.id,
    roomId: f.roomId,
    roomTypeId: f.roomTypeId,
    channel: f.channel as Channel,
    channelLabel: CHANNEL_LABELS[f.channel as Channel] ?? 'iCal',
    host: hostOf(f.url),
    lastFetchedAt: f.lastFetchedAt,
    lastSuccessAt: f.lastSuccessAt,
    failures: f.failures,
    lastError: f.lastError,
    stays: stays.get(f.id) ?? 0,
  }));
}

/**
 * Every import feed of the tenant, its rooms' and its room types', oldest first, one keyset page at a time
 * (`GET /api/v1/ical-feeds`).
 */
export async function listTenantIcalFeeds(input: {
  tenantId: string;
  limit: number;
  cursor?: string;
}): Promise<{ data: IcalFeedView[]; nextCursor: string | null }> {
  const { tenantId, limit } = input;
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  return withTenant({ tenantId }, async (tx) => {
    const rows = await tx.icalFeed.findMany({
      where: {
        tenantId,
        ...(after
          ? {
              createdAt: { gte: after.at },
              OR: [{ createdAt: { gt: after.at } }, { createdAt: after.at, id: { gt: after.id } }],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: await feedViews(tx, tenantId, page),
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  });
}

/**
 * Adds an import feed to one of the tenant's rooms or room types and fetches it at once, audited `ical_feed.added`
 * (the host only: the URL is the channel's secret). The same URL twice on a target is `conflict`; another tenant's
 * room or room type `not_found`.
 */
export async function addIcalFeed(
  input: { tenantId: string; url: string; channel: Channel; actor: Actor } & FeedTarget,
): Promise<IcalFeedView> {
  const { tenantId, url, channel, actor, ...rest } = input;
  const target: FeedTarget = 'roomId' in rest ? { roomId: rest.roomId } : { roomTypeId: rest.roomTypeId };
  const feed = await asService({ tenantId }, async (tx) => {
    const label = await targetLabel(tx, tenantId, target);
    if (label === null) throw notFound(target);
    const where = { tenantId, url, ...targetWhere(target) };
    if (await tx.icalFeed.findFirst({ where, select: { id: true } }))
      throw new AppError(
        'conflict',
        'roomId' in target
          ? 'This calendar is already imported into this room.'
          : 'This calendar is already imported into this room type.',
        { field: 'url' },
      );
    const feed = await tx.icalFeed.create({ data: { tenantId, url, channel, ...targetWhere(target) } });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'ical_feed.added',
      subject: 'roomId' in target ? { type: 'room', id: target.roomId } : { type: 'room_type', id: target.roomTypeId },
      metadata:
        'roomId' in target
          ? { room: label, feedId: feed.id, channel, host: hostOf(url) }
          : { roomType: label, feedId: feed.id, channel, host: hostOf(url) },
    });
    return (await feedViews(tx, tenantId, [feed]))[0]!;
  });
  await enqueueFeedNow({ tenantId, feedId: feed.id });
  return feed;
}

/**
 * Removes an import feed, audited `ical_feed.removed`. The stays it booked stay booked (they are guests' stays: the
 * desk cancels one if it must); the feed just stops changing them.
 */
export async function removeIcalFeed(input: {
  tenantId: string;
  feedId: string;
  actor: Actor;
}): Promise<{ removed: true }> {
  const { tenantId, feedId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const feed = await tx.icalFeed.findFirst({
      where: { tenantId, id: feedId },
      select: { roomId: true, roomTypeId: true, channel: true, url: true },
    });
    if (!feed) throw new AppError('not_found', 'No such calendar feed.');
    await tx.icalFeed.deleteMany({ where: { tenantId, id: feedId } });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'ical_feed.removed',
      subject: feed.roomId ? { type: 'room', id: feed.roomId } : { type: 'room_type', id: feed.roomTypeId! },
      metadata: { feedId, channel: feed.channel, host: hostOf(feed.url) },
    });
    return { removed: true };
  });
}

/** "Fetch now" on one of the tenant's feeds; another tenant's is `not_found`. */
export async function fetchIcalFeedNow({
  tenantId,
  feedId,
}: {
  tenantId: string;
  feedId: string;
}): Promise<{ queued: true }> {
  if (!(await enqueueFeedNow({ tenantId, feedId }))) throw new AppError('not_found', 'No such calendar feed.');
  return { queued: true };
}

/** What one sync of a feed did, as `POST /api/v1/ical-feeds/{id}/sync` answers it. */
export type IcalSyncView = {
  /** New stays booked from new UIDs. */
  created: number;
  /** Stays whose dates the feed changed (their keys follow). */
  changed: number;
  /** Stays cancelled because their UID was missing from two successful fetches in a row. */
  cancelled: number;
  /** Events not booked or not moved: they overlap another stay (each with its incident). */
  rejected: number;
  /** `not_modified`: the channel answered 304; `failed`: the fetch failed or was not a calendar (nothing cancelled). */
  status: 'synced' | 'not_modified' | 'failed';
  /** Why the fetch failed, in words (never the URL); null otherwise. */
  error: string | null;
};

/** How long a sync asked for waits for one already running on the feed before it gives up (`conflict`). */
export const SYNC_WAIT_MS = 25_000;

/**
 * Fetches one of the tenant's feeds now, in the caller's time, and says what it changed. A sync of the feed already
 * running (the worker's poll) is waited for, then this one fetches; another tenant's feed is `not_found`.
 */
export async function syncIcalFeedNow(input: {
  tenantId: string;
  feedId: string;
  waitMs?: number;
}): Promise<IcalSyncView> {
  const { tenantId, feedId } = input;
  const giveUpAt = Date.now() + (input.waitMs ?? SYNC_WAIT_MS);
  for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
    const outcome = await syncFeed({ tenantId, feedId });
    if (outcome.status === 'gone') throw new AppError('not_found', 'No such calendar feed.');
    if (outcome.status !== 'busy')
      return {
        created: outcome.booked,
        changed: outcome.moved,
        cancelled: outcome.cancelled,
        rejected: outcome.rejected,
        status: outcome.status,
        error: outcome.reason ?? null,
      };
    if (Date.now() + pause > giveUpAt)
      throw new AppError('conflict', 'This calendar is being fetched right now; try again in a minute.', {
        retryAfter: 60,
      });
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
