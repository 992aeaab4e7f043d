// The path prefixes the router (lib/api/router.ts) owns: everything below them is its to answer,
// 404s included. The web server's fast lane (lib/api/fast-lane.mjs) hands exactly these to it.
// Plain JavaScript, because the server loads it without a TypeScript step.

/** @type {readonly string[]} */
export const ROUTER_PREFIXES = ['/api/v1', '/api/webhooks', '/api/guest', '/api/public'];
