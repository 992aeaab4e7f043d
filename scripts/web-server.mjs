// A production web process: `node <WEB_NODE_FLAGS> scripts/web-server.mjs --port P --hostname H`
// (what `next start` does, plus the fast lane). Next.js serves every request, except the fast
// lane's (lib/api/fast-lane.mjs: everything below the router's prefixes, in its plain form): those
// go straight to the router (lib/api/router.ts) through Hono's documented `fetch`, without Next.js's
// request pipeline — the router Next.js mounts in app/api/[[...route]], loaded here from its source
// with tsx's documented `tsImport` (as the worker and the CLI load lib), no Next.js internals
// (decision 023). That pipeline (routing, web streams over Node streams, tracing, async storages)
// cost a webhook delivery about two thirds of the web process's CPU, and its tail at a steady 250
// deliveries a second (docs/PERFORMANCE.md, Webhook acknowledgement).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { bodyLimitOf } from '../lib/http/body-limit.mjs';
import { ROUTER_PREFIXES } from '../lib/api/router-prefixes.mjs';
import { inFastLane } from '../lib/api/fast-lane.mjs';
import { STATIC_SECURITY_HEADERS } from '../lib/http/static-headers.mjs';
import { markTrace } from '../lib/http/trace.mjs';

process.env.NODE_ENV = 'production';
const { values } = parseArgs({
  options: { port: { type: 'string', default: '3000' }, hostname: { type: 'string', default: '127.0.0.1' } },
});
const port = Number(values.port);
const hostname = values.hostname ?? '127.0.0.1';
const dir = process.cwd();
const { default: next } = await import('next');

const app = next({ dev: false, dir, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

// The router, from its source, loaded a little after the server listens (below), or by the first request that needs
// it: loading lib through tsx takes a couple of seconds, and pages and /api/health need none of it. The
// database pools are the process's one pair (lib/db/client.ts keeps them on globalThis), whichever copy of lib opens
// them first.
/** @type {Promise<{ apiFetch: (request: Request) => Promise<Response> }> | undefined} */
let router;
const ROUTER_PRELOAD_DELAY_MS = 10_000;
function loadRouter() {
  router = tsImport('../lib/api/router.ts', import.meta.url);
  router.catch((error) => {
    process.stderr.write(`fast lane: the API router did not load: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  });
  return router;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;

/**
 * The request's body, or as soon as it is longer than any route accepts, what came so far (the route
 * then refuses it with 413, and the connection is closed): a client streaming without end is not
 * waited for. Null when the client went away first.
 */
function readBody(req, limit) {
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    const done = (body) => {
      req.off('data', onData);
      resolve(body);
    };
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

/** Answers a fast-lane request with the router; false when Next.js must (HEAD, OPTIONS, and any other address). */
function serveFast(req, res) {
  if (!req.method || !METHODS.has(req.method) || !inFastLane(req.url ?? '/')) return false;
  void (async () => {
    try {
      const declared = Number(req.headers['content-length'] ?? '0');
      const limit = bodyLimitOf(req.method, req.url ?? '/');
      const body = req.method === 'GET' || declared > limit ? undefined : await readBody(req, limit);
      // The client went away before its body ended: there is no one to answer.
      if (body === null) return;
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      // This server's own origin, never the Host header a client sends (a route reads only the path and query).
      const request = new Request(`${origin}${req.url}`, {
        method: req.method,
        headers,
        body: body?.length ? body : undefined,
      });
      const { apiFetch } = await (router ?? loadRouter());
      /** @type {Response} */
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
      // A body the route refused unread must not be read as the next request on this connection.
      if (declared > limit || !req.complete) outHeaders.connection = 'close';
      res.writeHead(response.status, outHeaders);
      res.end(out);
    } catch (error) {
      // The router maps its own errors; this is a failure of the lane itself.
      process.stderr.write(`fast lane: ${error instanceof Error ? error.message : String(error)}\n`);
      const requestId = randomUUID();
      if (!res.headersSent)
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
      res.end(JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side.', requestId } }));
    }
  })();
  return true;
}

const server = http.createServer((req, res) => {
  // TRACE and TRACK reach Next.js as a marked OPTIONS: it cannot build a request for them (lib/http/trace.mjs).
  markTrace(req);
  if (!serveFast(req, res)) void handle(req, res);
});
server.listen(port, hostname, () => {
  process.stdout.write(
    `▲ UnlockOS web on http://${hostname}:${port} (fast lane: the router below ${ROUTER_PREFIXES.join(', ')})\n`,
  );
  // Soon, not at once: the seconds of CPU it takes would otherwise slow this process's first answers and the workers
  // booting beside it, which a first start waits for (docs/PERFORMANCE.md, "First start"). An API request before
  // then loads it itself.
  setTimeout(() => void (router ?? loadRouter()), ROUTER_PRELOAD_DELAY_MS).unref();
});
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
