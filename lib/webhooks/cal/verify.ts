import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies a Cal.com delivery: `X-Cal-Signature-256` is the hex HMAC-SHA256 of the raw body with
 * the webhook's secret, compared in constant time. The literal `no-secret-provided` never passes.
 */
export function verifyCalSignature(input: {
  rawBody: Uint8Array;
  header: string | null;
  secret: string;
}): 'ok' | 'malformed' | 'mismatch' {
  const header = input.header?.trim().toLowerCase() ?? '';
  if (!/^[0-9a-f]{64}$/.test(header)) return 'malformed';
  const expected = createHmac('sha256', input.secret).update(input.rawBody).digest();
  return timingSafeEqual(Buffer.from(header, 'hex'), expected) ? 'ok' : 'mismatch';
}

export function signCal(rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}
