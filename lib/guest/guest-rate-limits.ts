import { createHash } from 'node:crypto';
import { hitRateLimits } from '../ratelimit/rate-limit';

/** The client address as the proxy in front reports it (first hop), else "unknown". */
export function clientAddress(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || request.headers.get('x-real-ip') || 'unknown';
}

/** The guest key endpoint's limits: per guest link and per client address (hashed bucket names). */
export async function limitGuestKeyRequest(token: string, address: string): Promise<void> {
  const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
  await hitRateLimits([
    { bucket: `guest-key:token:${hash(token)}`, windowSeconds: 60, limit: 60 },
    { bucket: `guest-key:addr:${hash(address)}`, windowSeconds: 60, limit: 300 },
  ]);
}
