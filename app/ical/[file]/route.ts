import { withRequest } from '@/lib/api/http';
import { AppError } from '@/lib/errors';
import { etagOf, matchesIfNoneMatch } from '@/lib/http/etag';
import { exportFeed } from '@/lib/ical/export-feed';

/**
 * A room's busy periods as an RFC 5545 feed, for Airbnb, Booking.com and other channels to import: the URL's token
 * is the only credential (GET /api/v1/rooms/{id}/ical-url gives it; rotating it ends this address). An unknown or
 * rotated token is 404; an unchanged feed is 304 to a channel that sends the last ETag.
 */
export const GET = withRequest<{ file: string }>(async ({ request }, { file }) => {
  const token = /^(.+)\.ics$/.exec(file)?.[1];
  const text = token ? await exportFeed(token) : null;
  if (text === null) throw new AppError('not_found', 'No calendar at this address.');
  // The DTSTAMPs change with every read; the ETag is of the events alone.
  const etag = etagOf(text.replace(/^DTSTAMP:.*$/gm, ''));
  const headers = { etag, 'cache-control': 'private, max-age=300', 'x-robots-tag': 'noindex' };
  if (matchesIfNoneMatch(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(text, { headers: { ...headers, 'content-type': 'text/calendar; charset=utf-8' } });
});
