import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies an Acuity Scheduling delivery: `X-Acuity-Signature` is the base64 HMAC-SHA256 of the raw
 * (form-encoded) body with the account's API key, compared in constant time. No timestamp, no
 * delivery id: a replayed delivery is a duplicate in the inbox, and processing reads the
 * appointment's current state anyway.
 */
export function verifyAcuitySignature(input: {
  rawBody: Uint8Array;
  header: string | null;
  apiKey: string;
}): 'ok' | 'malformed' | 'mismatch' {
  const given = parseAcuitySignature(input.header);
  if (!given) return 'malformed';
  const expected = createHmac('sha256', input.apiKey).update(input.rawBody).digest();
  return timingSafeEqual(given, expected) ? 'ok' : 'mismatch';
}

/** The 32 bytes of an `X-Acuity-Signature` (base64: 43 characters and one `=`, tolerated without it), or null. */
export function parseAcuitySignature(header: string | null): Buffer | null {
  const text = header?.trim() ?? '';
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 ? bytes : null;
}

export function signAcuity(rawBody: string, apiKey: string): string {
  return createHmac('sha256', apiKey).update(rawBody).digest('base64');
}
