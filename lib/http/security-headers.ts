/** Two years, subdomains included: what browsers' preload lists ask for. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * The `Strict-Transport-Security` value for a public URL: only when it is https (a browser ignores
 * it over http, and a local `http://localhost` install must stay reachable). Read at run time,
 * because APP_URL may differ from what it was when the app was built.
 */
export function strictTransportSecurity(appUrl: string | undefined = process.env.APP_URL): string | null {
  if (!appUrl) return null;
  try {
    return new URL(appUrl).protocol === 'https:' ? HSTS : null;
  } catch {
    return null;
  }
}

/** Sets the run-time security headers (HSTS when APP_URL is https) on a response, and returns it. */
export function withSecurityHeaders<T extends Response>(
  response: T,
  appUrl: string | undefined = process.env.APP_URL,
): T {
  const hsts = strictTransportSecurity(appUrl);
  if (hsts) response.headers.set('strict-transport-security', hsts);
  return response;
}
