// The largest request body any route accepts: `readRawBody` (lib/api/body.ts) refuses more with 413,
// and the web server's fast lane (scripts/web-server.mjs) stops reading past it. Plain JavaScript,
// because the server loads it without a TypeScript step.
export const MAX_BODY_BYTES = 256 * 1024;

// The guest register's PUT (`/api/guest/{token}/registration`) carries up to 10 passport photos of at most
// 5 MB each as base64 data URLs (4/3 of their size): its own, larger limit. Every other route keeps the one above.
export const REGISTRATION_BODY_BYTES = 10 * Math.ceil((5 * 1024 * 1024) / 3) * 4 + 256 * 1024;

const REGISTRATION_PATH = /^\/api\/guest\/[^/?]+\/registration(?:\?|$)/;

/**
 * The largest body a request to `url` (its path, with or without the query) may send.
 * @param {string} method
 * @param {string} url
 * @returns {number}
 */
export function bodyLimitOf(method, url) {
  return method === 'PUT' && REGISTRATION_PATH.test(url) ? REGISTRATION_BODY_BYTES : MAX_BODY_BYTES;
}
