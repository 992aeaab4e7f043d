import { createHash } from 'node:crypto';
import { isGuestTokenShape } from '../auth/guest-links';
import type { Statement } from '../db/tx';
import { AppError } from '../errors';
import { hitRateLimits, rateLimitHits, type RateLimitRule } from '../ratelimit/rate-limit';

const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/**
 * A limit per guest link and client address together, and one per client address (hashed bucket
 * names). Never one per link alone: anyone who holds a forwarded link could spend it and keep the
 * guest's own page on "Loading"; one address spends only its own share of a link. A token that
 * cannot be a guest link is `not_found` before anything is counted, so made-up tokens create no
 * rate-limit rows.
 */
function guestRequestRules(
  name: string,
  token: string,
  address: string,
  perMinute: { token: number; address: number },
): RateLimitRule[] {
  if (!isGuestTokenShape(token)) throw new AppError('not_found', 'This key link is unknown or has expired.');
  return [
    { bucket: `${name}:token:${hash(token)}:addr:${hash(address)}`, windowSeconds: 60, limit: perMinute.token },
    { bucket: `${name}:addr:${hash(address)}`, windowSeconds: 60, limit: perMinute.address },
  ];
}

/**
 * The guest key endpoint's limits (and the key page's, which shows the same key), as a statement that
 * runs in the round trip of the link's own read.
 */
export function guestKeyLimit(token: string, address: string): Statement<void> {
  return rateLimitHits(guestRequestRules('guest-key', token, address, { token: 60, address: 300 }));
}

/** The guest register's PUT: a few tries a minute (each may carry megabytes of passport photos). */
export function guestRegistrationLimit(token: string, address: string): Statement<void> {
  return rateLimitHits(guestRequestRules('guest-register', token, address, { token: 10, address: 60 }));
}

const STATUS_PER_MINUTE = { token: 120, address: 1200 };

/**
 * The open key page's poll (and the stay's .ics), in buckets of their own so a page left open never
 * spends the key endpoint's: it polls every 5 s while visible (12 a minute), so a guest with the page
 * open on three devices stays far under 120 a link; a hotel's Wi-Fi puts a hundred guests' phones
 * behind one address, hence 1200 an address.
 */
export function guestStatusLimit(token: string, address: string): Statement<void> {
  return rateLimitHits(guestRequestRules('guest-status', token, address, STATUS_PER_MINUTE));
}

/** `guestStatusLimit` on its own round trip (the .ics, which reads the stay apart). */
export async function limitGuestStatusRequest(token: string, address: string): Promise<void> {
  await hitRateLimits(guestRequestRules('guest-status', token, address, STATUS_PER_MINUTE));
}

/**
 * A guest's messages to the desk and "my code does not work" reports, in buckets of their own: a person
 * writes a few a minute at most; a script holding a link fills nobody's desk past ten a minute.
 */
export function guestHelpLimit(token: string, address: string): Statement<void> {
  return rateLimitHits(guestRequestRules('guest-help', token, address, { token: 10, address: 100 }));
}
