import type { RateLimitRule } from '../ratelimit/rate-limit';
import { normalMailbox } from './hold-keys';

// The public booking endpoints take no credentials, so they are limited per client address and, where an
// address is mailed, per email: a script can neither hold every room nor mail-bomb someone (issue 30, item 4).

/** Reads (the facility, availability, quotes, a request's status): generous, per address. */
export function publicReadLimit(address: string): RateLimitRule[] {
  return [{ bucket: `public-read:${address}`, windowSeconds: 60, limit: 240 }];
}

/** A new booking request mails a code: per address (counted before its body is read) … */
export function bookingRequestLimit(address: string): RateLimitRule[] {
  return [{ bucket: `booking-request:${address}`, windowSeconds: 600, limit: 10 }];
}

/** … and per mailbox, one however its address is written (counted once the body names it). */
export function bookingRequestEmailLimit(email: string): RateLimitRule[] {
  return [{ bucket: `booking-request-email:${normalMailbox(email)}`, windowSeconds: 3600, limit: 5 }];
}

/** Typing a code: per address (each request also ends at its fifth wrong code). */
export function confirmLimit(address: string): RateLimitRule[] {
  return [{ bucket: `booking-confirm:${address}`, windowSeconds: 600, limit: 30 }];
}
