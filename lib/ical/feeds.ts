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

/** The import feeds of one of the tenant's rooms, oldest first, with the stays each has booked. */
export async function listIcalFeeds({
  tenantId,
  roomId,
}: {
  tenantId: string;
  roomId: string;
}): Promise<IcalFeedView[]> {
  return withTenant({ tenantId }, async (tx) => {
    if (!(await tx.room.findFirst({ where: { tenantId, id: roomId }, select: { id: true } })))
      throw new AppError('not_found', 'No such room.');
    const feeds = await tx.icalFeed.findMany({
      where: { tenantId, roomId },
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
 * Adds an import feed to one of the tenant's rooms and fetches it at once, audited `ical_feed.added` (the host only:
 * the URL is the channel's secret). The same URL twice on a room is `conflict`; another tenant's room `not_found`.
 */
export async function addIcalFeed(input: {
  tenantId: string;
  roomId: string;
  url: string;
  channel: Channel;
  actor: Actor;
}): Promise<{ id: string }> {
  const { tenantId, roomId, url, channel, actor } = input;
  const { id } = await asService({ tenantId }, async (tx) => {
    const room = await tx.room.findFirst({ where: { tenantId, id: roomId }, select: { label: true } });
    if (!room) throw new AppError('not_found', 'No such room.');
    const exists = await tx.icalFeed.findFirst({ where: { tenantId, roomId, url }, select: { id: true } });
    if (exists) throw new AppError('conflict', 'This calendar is already imported into this room.', { field: 'url' });
    const feed = await tx.icalFeed.create({ data: { tenantId, roomId, url, channel }, select: { id: true } });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'ical_feed.added',
      subject: { type: 'room', id: roomId },
      metadata: { room: room.label, feedId: feed.id, channel, host: hostOf(url) },
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
      select: { roomId: true, channel: true, url: true },
    });
    if (!feed) throw new AppError('not_found', 'No such calendar feed.');
    await tx.icalFeed.deleteMany({ where: { tenantId, id: feedId } });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'ical_feed.removed',
      subject: { type: 'room', id: feed.roomId },
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
