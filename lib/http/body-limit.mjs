// The largest request body any route accepts: `readRawBody` (lib/api/body.ts) refuses more with 413,
// and the web server's fast lane (scripts/web-server.mjs) stops reading past it. Plain JavaScript,
// because the server loads it without a TypeScript step.
export const MAX_BODY_BYTES = 256 * 1024;
