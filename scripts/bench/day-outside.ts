// The world outside UnlockOS that `npm run bench:day` plays, in the bench's own process: the channels' iCal
// feeds (an HTTP server the workers poll, with ETags and 304s as Airbnb serves them) and Stripe (the local
// stand-in the product's SDK talks to, its signed webhooks timed by a proxy on their way to the web processes).
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { startStripeStandin, type StripeStandin } from '../../tooling/stripe-standin/stripe-standin';

// ---------------------------------------------------------------------------------------------
// iCal feeds

/** One VEVENT of a feed: all-day dates (`YYYYMMDD`, DTEND exclusive), fixed when the event is made. */
export type FeedEvent = { uid: string; from: string; to: string };

export type Feed = {
  id: string;
  tenantId: string;
  events: FeedEvent[];
  body: string;
  etag: string;
  /** Every fetch the feed answered: when (epoch ms) and with what status (200 or 304). */
  fetches: { at: number; status: number }[];
  /** The next free slot of the feed's dates (each slot is four days, so a move by one day stays in it). */
  nextSlot: number;
  /** Its first event was moved or removed: it is not moved or removed again. */
  firstTouched: boolean;
};

/** `YYYYMMDD`, `days` days from `base` (UTC). */
export const icalDate = (base: number, days: number) =>
  new Date(base + days * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');

/** The calendar text of a feed's events, as a channel writes it. */
export function feedBody(events: FeedEvent[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 1.0//EN'];
  for (const e of events)
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTART;VALUE=DATE:${e.from}`,
      `DTEND;VALUE=DATE:${e.to}`,
      'SUMMARY:Reserved',
      'END:VEVENT',
    );
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

export const feedEtag = (body: string) => `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;

/** Gives a feed new events: the next fetch gets them (a 200 with a new ETag). */
export function setFeedEvents(feed: Feed, events: FeedEvent[]): void {
  feed.events = events;
  feed.body = feedBody(events);
  feed.etag = feedEtag(feed.body);
}

export type FeedServer = {
  url: string;
  feeds: Map<string, Feed>;
  close: () => Promise<void>;
};

/** Serves every feed at `${url}/<feed id>.ics`; `onFetch` hears each fetch as it is answered. */
export async function startFeeds(onFetch: (feed: Feed, at: number, status: number) => void): Promise<FeedServer> {
  const feeds = new Map<string, Feed>();
  const server = http.createServer((request, response) => {
    const id = /^\/([0-9a-f-]{36})\.ics$/.exec(request.url ?? '')?.[1];
    const feed = id ? feeds.get(id) : undefined;
    if (!feed) {
      response.writeHead(404).end();
      return;
    }
    const at = Date.now();
    const status = request.headers['if-none-match'] === feed.etag ? 304 : 200;
    feed.fetches.push({ at, status });
    if (status === 304) response.writeHead(304).end();
    else response.writeHead(200, { 'content-type': 'text/calendar', etag: feed.etag }).end(feed.body);
    onFetch(feed, at, status);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    feeds,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Stripe

export type StripeSide = {
  standin: StripeStandin;
  /** The proxy's port and the web route it forwards to: what the launcher's stand-in settings take. */
  proxyPort: number;
  webhookUrl: string;
  close: () => Promise<void>;
};

/**
 * The Stripe stand-in, delivering its signed events (signed with `secret`) to a proxy that forwards each to one
 * of the web processes (`webs()`, in turn, the raw bytes and headers untouched) and reports how long the web
 * took to acknowledge it, with the event's type and booking group.
 */
export async function startStripeSide(options: {
  secret: string;
  webs: () => Pool[];
  onAck: (ack: { type: string; bookingGroupId: string | null; ms: number; status: number; at: number }) => void;
}): Promise<StripeSide> {
  let turn = 0;
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const started = performance.now();
      const pools = options.webs();
      const pool = pools[turn++ % pools.length]!;
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'stripe-signature', 'user-agent']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      let type = 'unknown';
      let bookingGroupId: string | null = null;
      try {
        const event = JSON.parse(body.toString('utf8')) as {
          type?: string;
          data?: { object?: { metadata?: { bookingGroupId?: string } } };
        };
        type = event.type ?? type;
        bookingGroupId = event.data?.object?.metadata?.bookingGroupId ?? null;
      } catch {
        // Not JSON: forwarded all the same (the web answers 400).
      }
      pool
        .request({ path: '/api/webhooks/stripe', method: 'POST', headers, body, headersTimeout: 60_000 })
        .then(async (answer) => {
          const text = await answer.body.text();
          options.onAck({
            type,
            bookingGroupId,
            ms: performance.now() - started,
            status: answer.statusCode,
            at: Date.now(),
          });
          response.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(text);
        })
        .catch(() => {
          options.onAck({ type, bookingGroupId, ms: performance.now() - started, status: 0, at: Date.now() });
          response.writeHead(502).end();
        });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxy.address() as AddressInfo).port;
  const webhookUrl = `http://127.0.0.1:${proxyPort}/api/webhooks/stripe`;
  const standin = await startStripeStandin({
    webhookUrl,
    webhookSecret: options.secret,
    retryDelaysMs: [1_000, 5_000],
  });
  return {
    standin,
    proxyPort,
    webhookUrl,
    close: async () => {
      await standin.close();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
