// The security headers every response carries: next.config.js sets them on what Next.js serves,
// and the web server's fast lane (scripts/web-server.mjs) on what it answers itself. Plain
// JavaScript, because next.config.js and the server load it without a TypeScript step.

/** @type {{ key: string; value: string }[]} */
export const STATIC_SECURITY_HEADERS = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'no-referrer' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];
