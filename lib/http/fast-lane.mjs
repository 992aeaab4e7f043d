// The fast lane: the addresses called many times a second (the providers' webhooks, the API's three
// hottest addresses, and the open guest page's status poll) go from the web server
// (scripts/web-server.mjs) straight to their route handlers, without Next.js's request pipeline around them. Each is an address that
// skips the proxy (proxy.ts; a test holds this), so nothing but that pipeline is skipped: each
// handler already answers every method it exports with a request id, its own 405s and its errors.
// The benchmarks' empty route (/api/ping) stays with Next.js: it is their baseline for what
// Next.js's pipeline costs.
// Plain JavaScript: the server loads it without a TypeScript step.

/**
 * Each address: its pattern over the decoded-free path (no query string), the route it is in the
 * build (`app/<route>/route.ts`), and the parameters the route gets from the match.
 * @type {{ pattern: RegExp; route: string; params: (match: RegExpExecArray) => Record<string, string | string[]> }[]}
 */
const ADDRESSES = [
  { pattern: /^\/api\/v1\/rooms$/, route: 'api/v1/rooms', params: () => ({}) },
  { pattern: /^\/api\/v1\/reservations$/, route: 'api/v1/reservations', params: () => ({}) },
  {
    pattern: /^\/api\/v1\/check-ins\/([^/]+)\/key$/,
    route: 'api/v1/check-ins/[id]/key',
    params: (m) => ({ id: m[1] }),
  },
  { pattern: /^\/api\/webhooks\/stripe$/, route: 'api/webhooks/stripe', params: () => ({}) },
  ...['calendly', 'cal', 'seam'].map((provider) => ({
    pattern: new RegExp(`^/api/webhooks/${provider}/([^/]+)$`),
    route: `api/webhooks/${provider}/[tenantId]`,
    params: (/** @type {RegExpExecArray} */ m) => ({ tenantId: m[1] }),
  })),
  // An open guest page asks every 5 s while it is visible: the request a guest's phone makes most.
  { pattern: /^\/api\/guest\/([^/]+)\/status$/, route: 'api/guest/[token]/status', params: (m) => ({ token: m[1] }) },
];

/**
 * The fast-lane route of a request path (query string included or not), with its parameters
 * decoded as Next.js decodes them; null when Next.js should serve it (anything else, and any path
 * that is not in its plain form: trailing slashes, `..`, empty or undecodable segments).
 * @param {string} url
 * @returns {{ route: string; params: Record<string, string | string[]> } | null}
 */
export function fastLaneRoute(url) {
  const query = url.indexOf('?');
  const pathname = query === -1 ? url : url.slice(0, query);
  for (const { pattern, route, params } of ADDRESSES) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    const raw = params(match);
    /** @type {Record<string, string | string[]>} */
    const decoded = {};
    for (const [name, value] of Object.entries(raw)) {
      if (typeof value !== 'string') continue;
      let text;
      try {
        text = decodeURIComponent(value);
      } catch {
        return null;
      }
      if (text === '' || text === '.' || text === '..' || text.includes('/')) return null;
      decoded[name] = text;
    }
    return { route, params: decoded };
  }
  return null;
}

/** Every route the fast lane serves, as built (for the server to load them at start). */
export const FAST_LANE_ROUTES = ADDRESSES.map((address) => address.route);
