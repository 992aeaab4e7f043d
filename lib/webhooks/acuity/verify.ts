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
  const header = input.header?.trim() ?? '';
  // 32 bytes in base64: 43 characters and one `=` of padding (tolerated without it).
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(header)) return 'malformed';
  const given = Buffer.from(header, 'base64');
  if (given.length !== 32) return 'malformed';
  const expected = createHmac('sha256', input.apiKey).update(input.rawBody).digest();
  return timingSafeEqual(given, expected) ? 'ok' : 'mismatch';
}

export function signAcuity(rawBody: string, apiKey: string): string {
  return createHmac('sha256', apiKey).update(rawBody).digest('base64');
}
