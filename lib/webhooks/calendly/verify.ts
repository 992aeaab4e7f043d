import { createHmac, timingSafeEqual } from 'node:crypto';

export const CALENDLY_TOLERANCE_SECONDS = 180;

export type ParsedCalendlySignature = { t: number; v1: string[] };

/** Parses `t=<unix>,v1=<hex>[,v1=<hex>…]`; null for anything else (missing parts, junk, duplicates of t). */
export function parseCalendlySignature(header: string | null | undefined): ParsedCalendlySignature | null {
  if (!header || header.length > 1024) return null;
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const index = part.indexOf('=');
    if (index <= 0) return null;
    const key = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (key === 't') {
      if (t !== null || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return null;
      v1.push(value.toLowerCase());
    }
  }
  return t !== null && v1.length > 0 ? { t, v1 } : null;
}

/**
 * Verifies a Calendly delivery: HMAC-SHA256 of `"<t>.<raw body>"` with the tenant's signing key,
 * compared in constant time, and `t` within 180 s of now.
 */
export function verifyCalendlySignature(input: {
  rawBody: Uint8Array;
  header: string | null;
  signingKey: string;
  now?: number;
}): 'ok' | 'malformed' | 'stale' | 'mismatch' {
  const parsed = parseCalendlySignature(input.header);
  if (!parsed) return 'malformed';
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - parsed.t) > CALENDLY_TOLERANCE_SECONDS) return 'stale';
  const expected = createHmac('sha256', input.signingKey).update(`${parsed.t}.`).update(input.rawBody).digest();
  return parsed.v1.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected)) ? 'ok' : 'mismatch';
}

/** Signs a body as Calendly does (tests and the simulator of a provider). */
export function signCalendly(rawBody: string, signingKey: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', signingKey).update(`${t}.${rawBody}`).digest('hex')}`;
}
