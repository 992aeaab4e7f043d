// A production web process: `node <WEB_NODE_FLAGS> scripts/web-server.mjs --port P --hostname H`
// (what `next start` does, plus the fast lane). Next.js serves every request, except the fast
// lane's (lib/api/fast-lane.mjs: everything below the router's prefixes, in its plain form): those
// go straight to the router (lib/api/router.ts) through Hono's documented `fetch`, without Next.js's
// request pipeline — the router Next.js mounts in app/api/[[...route]], loaded here from its source
// with tsx's documented `tsImport` (as the worker and the CLI load lib), no Next.js internals
// (decision 023). That pipeline (routing, web streams over Node streams, tracing, async storages)
// cost a webhook delivery about two thirds of the web process's CPU, and its tail at a steady 250
// deliveries a second (docs/PERFORMANCE.md, Webhook acknowledgement).
import http from 'node:http';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { ROUTER_PREFIXES } from '../lib/api/router-prefixes.mjs';
import { fastLane } from '../lib/api/fast-lane.mjs';
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

const origin = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
const serveFast = fastLane({ origin, router: () => router ?? loadRouter() });

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
