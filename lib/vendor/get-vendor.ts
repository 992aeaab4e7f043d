import { createHttpVendor } from './http-vendor';
import type { LockVendor } from './port';

let vendor: LockVendor | null = null;

/** The configured lock vendor (`LOCK_VENDOR`, default the simulator at `LOCK_VENDOR_URL`). */
export function getVendor(): LockVendor {
  if (vendor) return vendor;
  const kind = process.env.LOCK_VENDOR ?? 'simulator';
  if (kind !== 'simulator' && kind !== 'http') throw new Error(`unknown LOCK_VENDOR "${kind}"`);
  const baseUrl = process.env.LOCK_VENDOR_URL;
  if (!baseUrl) throw new Error('LOCK_VENDOR_URL is not set (npm start sets it to the simulator)');
  vendor = createHttpVendor({
    baseUrl,
    clientId: process.env.LOCK_VENDOR_CLIENT_ID ?? 'unlockos',
    clientSecret: process.env.LOCK_VENDOR_CLIENT_SECRET ?? 'simulator-secret',
    timeoutMs: Number(process.env.LOCK_VENDOR_TIMEOUT_MS ?? 10_000),
  });
  return vendor;
}

/** For tests: use this vendor instead of the configured one. */
export function setVendorForTests(next: LockVendor | null): void {
  vendor = next;
}
