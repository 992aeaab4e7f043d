const BASE = 'http://unlockos.invalid';

/**
 * A same-site path to return to after a form or a sign-in, or `fallback`: `/x` yes; `//host`,
 * `/\host` (browsers read `\` as `/`), `https://host` and anything resolving elsewhere no.
 */
export function safeReturnPath(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || value.length > 2048) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  try {
    const url = new URL(value, BASE);
    return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}
