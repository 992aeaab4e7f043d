// The fast lane: machine traffic — everything below the router's prefixes (lib/api/router-prefixes.mjs:
// /api/v1, /api/webhooks, /api/guest) — goes from the web server (scripts/web-server.mjs) straight to
// the router, without Next.js's request pipeline around it. Those addresses skip the proxy
// (proxy.ts; a test holds this), so nothing but that pipeline is skipped: the router answers every
// method and address below them itself, with a request id, its 405s, 404s and errors
// (lib/api/router.ts, decision 023). The benchmarks' empty route (/api/ping) stays with Next.js: it
// is their baseline for what Next.js's pipeline costs.
// Plain JavaScript: the server loads it without a TypeScript step.
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
