// TRACE and TRACK: Next.js builds a Web Request for every request it serves, and the Fetch standard
// forbids those methods, so Next.js answered them with a 500 before any of our code ran (no request
// id). The web server (scripts/web-server.mjs) hands them on as an OPTIONS marked with the header
// below, and the proxy and the routes answer that with 405 and the address's Allow (lib/api/http.ts,
// `optionsResponse`). Plain JavaScript, because the server loads it without a TypeScript step.

/** The header that marks an OPTIONS as a TRACE handed on by the web server. */
export const TRACE_MARKER = 'x-unlockos-trace';

const FORBIDDEN = new Set(['TRACE', 'TRACK']);

/**
 * Prepares a Node request for Next.js: drops any copy of the marker a client sent (also from
 * rawHeaders), and turns a TRACE or TRACK into a marked OPTIONS.
 * @param {import('node:http').IncomingMessage} req
 */
export function markTrace(req) {
  if (TRACE_MARKER in req.headers) {
    delete req.headers[TRACE_MARKER];
    const raw = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
      if (req.rawHeaders[i].toLowerCase() !== TRACE_MARKER) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
    req.rawHeaders = raw;
  }
  if (req.method && FORBIDDEN.has(req.method.toUpperCase())) {
    req.method = 'OPTIONS';
    req.headers[TRACE_MARKER] = '1';
    req.rawHeaders.push(TRACE_MARKER, '1');
  }
}
