import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An ETag of a feed's text, as a channel would give it. */
export const etagOf = (text: string) => `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;

/** `YYYYMMDD`, `offset` days from today (UTC): an all-day iCal date. */
export const icalDay = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');

/** One all-day VEVENT from `from` to `to` days from today (DTEND exclusive), as Airbnb writes them. */
export const icalEvent = (uid: string, from: number, to: number) =>
  [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTART;VALUE=DATE:${icalDay(from)}`,
    `DTEND;VALUE=DATE:${icalDay(to)}`,
    'SUMMARY:Reserved',
    'END:VEVENT',
  ].join('\r\n');

export const icalCalendar = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 1.0//EN', ...events, 'END:VCALENDAR'].join(
    '\r\n',
  );

/**
 * A channel's feed served by a local HTTP server the way Airbnb serves one: an ETag, 304 to a matching
 * If-None-Match, and whatever failure a test sets (`failWith`). `body` is what the next fetch gets.
 */
export async function startFeedServer() {
  const state = {
    body: '',
    failWith: null as number | null,
    requests: [] as IncomingHttpHeaders[],
    url: '',
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    state.requests.push(request.headers);
    if (state.failWith) {
      response.writeHead(state.failWith).end('upstream trouble');
      return;
    }
    const etag = etagOf(state.body);
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/calendar', etag }).end(state.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/calendar.ics`;
  return state;
}
