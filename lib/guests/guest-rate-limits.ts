import { createHash } from 'node:crypto';
import { isGuestTokenShape } from '../auth/guest-links';
import { AppError } from '../errors';
import { hitRateLimits } from '../ratelimit/rate-limit';

/**
 * The guest key endpoint's limits: per guest link and per client address (hashed bucket names).
 * A token that cannot be a guest link is `not_found` before anything is counted, so made-up tokens
 * create no rate-limit rows.
 */
export async function limitGuestKeyRequest(token: string, address: string): Promise<void> {
  if (!isGuestTokenShape(token)) throw new AppError('not_found', 'This key link is unknown or has expired.');
  const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
  await hitRateLimits([
    { bucket: `guest-key:token:${hash(token)}`, windowSeconds: 60, limit: 60 },
    { bucket: `guest-key:addr:${hash(address)}`, windowSeconds: 60, limit: 300 },
  ]);
}
