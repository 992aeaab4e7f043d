import { createHash } from 'node:crypto';
import { derivedToken } from '../auth/guest-links';

/** How long a booking request's emailed code works. */
export const CODE_MINUTES = 15;

/**
 * A booking request's 6-digit code: derived from the request's random id under the server's secret, so it is never
 * stored (only its hash) and the worker can mail it again. Never in an HTTP answer, never logged.
 */
export function bookingCode(requestId: string): string {
  const digest = Buffer.from(derivedToken('booking-code', requestId), 'base64url');
  return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, '0');
}

/** The stored form of a code typed for a request (sha256 of the request id and the code). */
export function bookingCodeHash(requestId: string, code: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(`${requestId}:${code}`).digest());
}
