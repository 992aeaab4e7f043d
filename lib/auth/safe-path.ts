const BASE = 'http://unlockos.invalid';

// Characters URL parsers drop or reinterpret (C0 controls and space at the ends, tab and newlines
// anywhere, `\` read as `/`): a value carrying them is refused rather than guessed at.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;
// A path whose second character is a slash or backslash, literal or percent-encoded (once or more),
// is scheme-relative to a browser, or becomes so once something decodes it.
const SCHEME_RELATIVE = /^\/(?:[/\\]|%(?:25)*(?:2f|5c))/i;

function normalised(value: string): string | null {
  if (value.length > 2048 || !value.startsWith('/') || UNSAFE_CHARACTERS.test(value) || value.trim() !== value)
    return null;
  try {
    const url = new URL(value, BASE);
    if (url.origin !== BASE) return null;
    const path = `${url.pathname}${url.search}${url.hash}`;
    return SCHEME_RELATIVE.test(path) ? null : path;
  } catch {
    return null;
  }
}

/**
 * A same-site path to return to after a form or a sign-in, or `fallback`. The check runs after
 * normalisation, so the value returned is itself a path a browser resolves to this origin (never
 * `//…` or `/\…`, whatever dot segments, encodings or stripped characters led there), and
 * normalising it again changes nothing.
 */
export function safeReturnPath(value: unknown, fallback: string): string {
  if (typeof value !== 'string') return fallback;
  const path = normalised(value);
  // A second pass must be a fixed point: what we return is what the browser will ask for.
  return path !== null && normalised(path) === path ? path : fallback;
}

/**
 * next-auth's `redirect` callback: a URL on `baseUrl`'s origin (absolute or a path), reduced to a
 * safe path on that origin; anything else becomes `fallback` on that origin.
 */
export function safeRedirectUrl(url: string, baseUrl: string, fallback: string): string {
  const origin = new URL(baseUrl).origin;
  let candidate: string | null = url;
  if (!url.startsWith('/')) {
    try {
      const absolute = new URL(url);
      candidate =
        absolute.origin === origin && absolute.username === '' && absolute.password === ''
          ? `${absolute.pathname}${absolute.search}${absolute.hash}`
          : null;
    } catch {
      candidate = null;
    }
  }
  return `${origin}${safeReturnPath(candidate, fallback)}`;
}
