import { z } from 'zod';
import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, withTenant } from '../db/tx';
import { AppError } from '../errors';
import { CHANNEL_LABELS, enqueueFeedNow, type Channel } from './sync-feed';

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

/** A feed as its room's page shows it: never its whole URL (it is the channel's secret), only its host. */
export type IcalFeedView = {
  id: string;
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
async function targetLabel(
  tx: Parameters<Parameters<typeof withTenant>[1]>[0],
  tenantId: string,
  target: FeedTarget,
): Promise<string | null> {
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
    const counts = await tx.icalFeedEvent.groupBy({
      by: ['feedId'],
      where: { tenantId, feedId: { in: feeds.map((f) => f.id) }, status: 'booked' },
      _count: { _all: true },
    });
    const stays = new Map(counts.map((c) => [c.feedId, c._count._all]));
    return feeds.map((f) => ({
      id: f.id,
      channel: f.channel as Channel,
      channelLabel: CHANNEL_LABELS[f.channel as Channel] ?? 'iCal',
      host: hostOf(f.url),
      lastFetchedAt: f.lastFetchedAt,
      lastSuccessAt: f.lastSuccessAt,
      failures: f.failures,
      lastError: f.lastError,
      stays: stays.get(f.id) ?? 0,
    }));
  });
}

/**
 * Adds an import feed to one of the tenant's rooms or room types and fetches it at once, audited `ical_feed.added`
 * (the host only: the URL is the channel's secret). The same URL twice on a target is `conflict`; another tenant's
 * room or room type `not_found`.
 */
export async function addIcalFeed(
  input: { tenantId: string; url: string; channel: Channel; actor: Actor } & FeedTarget,
): Promise<{ id: string }> {
  const { tenantId, url, channel, actor, ...rest } = input;
  const target: FeedTarget = 'roomId' in rest ? { roomId: rest.roomId } : { roomTypeId: rest.roomTypeId };
  const { id } = await asService({ tenantId }, async (tx) => {
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
    const feed = await tx.icalFeed.create({
      data: { tenantId, url, channel, ...targetWhere(target) },
      select: { id: true },
    });
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
    return feed;
  });
  await enqueueFeedNow({ tenantId, feedId: id });
  return { id };
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
