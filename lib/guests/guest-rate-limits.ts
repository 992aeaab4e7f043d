import { createHash } from 'node:crypto';
import { isGuestTokenShape } from '../auth/guest-links';
import { AppError } from '../errors';
import { hitRateLimits } from '../ratelimit/rate-limit';

const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/** Per guest link and per client address (hashed bucket names), after refusing a token that cannot be a link. */
function limitGuestRequest(
  name: string,
  token: string,
  address: string,
  perMinute: { token: number; address: number },
): Promise<void> {
  if (!isGuestTokenShape(token)) throw new AppError('not_found', 'This key link is unknown or has expired.');
  return hitRateLimits([
    { bucket: `${name}:token:${hash(token)}`, windowSeconds: 60, limit: perMinute.token },
    { bucket: `${name}:addr:${hash(address)}`, windowSeconds: 60, limit: perMinute.address },
  ]);
}

/**
 * The guest key endpoint's limits: per guest link and per client address (hashed bucket names).
 * A token that cannot be a guest link is `not_found` before anything is counted, so made-up tokens
 * create no rate-limit rows.
 */
export async function limitGuestKeyRequest(token: string, address: string): Promise<void> {
  await limitGuestRequest('guest-key', token, address, { token: 60, address: 300 });
}

/**
 * The open key page's poll (and the stay's .ics), in buckets of their own so a page left open never
 * spends the key endpoint's: it polls every 5 s while visible (12 a minute), so a guest with the page
 * open on three devices stays far under 120 a link; a hotel's Wi-Fi puts a hundred guests' phones
 * behind one address, hence 1200 an address.
 */
export async function limitGuestStatusRequest(token: string, address: string): Promise<void> {
  await limitGuestRequest('guest-status', token, address, { token: 120, address: 1200 });
}
