// The fast lane: machine traffic — everything below the router's prefixes (lib/api/router-prefixes.mjs:
// /api/v1, /api/webhooks, /api/guest) — goes from the web server (scripts/web-server.mjs) straight to
// the router, without Next.js's request pipeline around it. Those addresses skip the proxy
// (proxy.ts; a test holds this), so nothing but that pipeline is skipped: the router answers every
// method and address below them itself, with a request id, its 405s, 404s and errors
// (lib/api/router.ts, decision 023). The benchmarks' empty route (/api/ping) stays with Next.js: it
// is their baseline for what Next.js's pipeline costs.
// Plain JavaScript: the server loads it without a TypeScript step.
import { randomUUID } from 'node:crypto';
import { bodyLimitOf, MAX_BODY_BYTES } from '../http/body-limit.mjs';
import { STATIC_SECURITY_HEADERS } from '../http/static-headers.mjs';
import { ROUTER_PREFIXES } from './router-prefixes.mjs';

/**
 * Whether a request path (query string included or not) is the router's, in its plain form; false
 * when Next.js should serve it (anything else, and any path that is not in its plain form: trailing
 * slashes, empty, `.` or `..` segments, encoded slashes, undecodable segments — Next.js redirects or
 * refuses those as it always did, and sends what remains to the router through its catch-all).
 * @param {string} url
 * @returns {boolean}
 */
export function inFastLane(url) {
  const query = url.indexOf('?');
  const pathname = query === -1 ? url : url.slice(0, query);
  if (!ROUTER_PREFIXES.some((prefix) => pathname.startsWith(`${prefix}/`))) return false;
  for (const segment of pathname.slice(1).split('/')) {
    let text;
    try {
      text = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (text === '' || text === '.' || text === '..' || text.includes('/')) return false;
  }
  return true;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The request's body, or as soon as it is longer than any route accepts, what came so far (the route
 * then refuses it with 413, and the connection is closed): a client streaming without end is not
 * waited for. Null when the client went away first.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @returns {Promise<Buffer | null>}
 */
function readBody(req, limit) {
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    /** @param {Buffer | null} body */
    const done = (body) => {
      req.off('data', onData);
      resolve(body);
    };
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) done(Buffer.concat(chunks, size));
    };
    req.on('data', onData);
    req.on('end', () => done(Buffer.concat(chunks, size)));
    req.on('close', () => {
      if (!req.complete) done(null);
    });
    req.on('error', () => done(null));
  });
}

/**
 * The body of a request to a route with a raised limit (the guest register's PUT), as a web stream the route pulls
 * from: nothing is taken off the connection before the route reads (the socket stops once Node's small buffer is
 * full), so a route that answers first — an unknown link's 404 — reads none of it, and the route's own limit
 * (`readRawBody`) caps what it reads. Not `Readable.toWeb(req)`: cancelling that destroys the request and its socket,
 * so a route stopping at its limit could not answer 413; cancelling this one stops reading, and the lane closes the
 * connection after the answer.
 * @param {import('node:http').IncomingMessage} req
 * @returns {ReadableStream<Uint8Array>}
 */
function bodyStream(req) {
  let settled = false;
  /** @param {Buffer} chunk */
  let onData = (chunk) => void chunk;
  return new ReadableStream(
    {
      start(controller) {
        /** @param {() => void} settle */
        const once = (settle) => {
          if (settled) return;
          settled = true;
          req.off('data', onData);
          settle();
        };
        onData = (chunk) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        req.on('data', onData);
        req.pause();
        req.on('end', () => once(() => controller.close()));
        req.on('error', (error) => once(() => controller.error(error)));
        req.on('close', () => {
          if (!req.complete) once(() => controller.error(new Error('the client went away before its body ended')));
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        settled = true;
        req.off('data', onData);
        req.pause();
      },
    },
    // Nothing read ahead: one chunk off the socket for each read of the route.
    { highWaterMark: 0 },
  );
}

/**
 * The web server's fast lane (scripts/web-server.mjs): a `node:http` request handler that answers a request
 * below the router's prefixes, in its plain form, with the router's `fetch` (`origin` is the server's own, never
 * the Host a client sends), and returns false for anything Next.js must serve (HEAD, OPTIONS, any other address).
 * @param {{ origin: string; router: () => Promise<{ apiFetch: (request: Request) => Promise<Response> }> }} options
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean}
 */
export function fastLane({ origin, router }) {
  return function serveFast(req, res) {
    if (!req.method || !METHODS.has(req.method) || !inFastLane(req.url ?? '/')) return false;
    void (async () => {
      try {
        const declared = Number(req.headers['content-length'] ?? '0');
        const limit = bodyLimitOf(req.method ?? 'GET', req.url ?? '/');
        const unread = req.method === 'GET' || declared > limit;
        // A route with a raised limit pulls its body itself, once it knows it wants it (an unknown guest link does
        // not); the others get theirs read whole first, at most 256 KiB (the webhooks' benchmarks measure this path).
        const streamed = !unread && limit > MAX_BODY_BYTES;
        const body = unread || streamed ? undefined : await readBody(req, limit);
        // The client went away before its body ended: there is no one to answer.
        if (body === null) return;
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
        // This server's own origin, never the Host header a client sends (a route reads only the path and query).
        const request = new Request(`${origin}${req.url}`, {
          method: req.method,
          headers,
          ...(streamed ? { body: bodyStream(req), duplex: 'half' } : { body: body?.length ? body : undefined }),
        });
        const { apiFetch } = await router();
        const response = await apiFetch(request);
        const out = Buffer.from(await response.arrayBuffer());
        /** @type {Record<string, string | string[]>} */
        const outHeaders = {};
        for (const { key, value } of STATIC_SECURITY_HEADERS) outHeaders[key.toLowerCase()] = value;
        response.headers.forEach((value, key) => {
          if (key !== 'set-cookie') outHeaders[key] = value;
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length) outHeaders['set-cookie'] = cookies;
        outHeaders['content-length'] = String(out.length);
        // A body the route refused or answered unread must not be read as the next request on this connection.
        if (declared > limit || !req.complete) outHeaders.connection = 'close';
        res.writeHead(response.status, outHeaders);
        res.end(out);
      } catch (error) {
        // The router maps its own errors; this is a failure of the lane itself.
        process.stderr.write(`fast lane: ${error instanceof Error ? error.message : String(error)}\n`);
        const requestId = randomUUID();
        if (!res.headersSent)
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
        res.end(
          JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side.', requestId } }),
        );
      }
    })();
    return true;
  };
}
