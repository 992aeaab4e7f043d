import { createHttpVendor } from './http-vendor';
import type { LockVendor } from './port';

let vendor: LockVendor | null = null;

/**
 * The configured lock vendor (`LOCK_VENDOR`, default the simulator at `LOCK_VENDOR_URL`), with the
 * client credentials given explicitly (`LOCK_VENDOR_CLIENT_ID`, `LOCK_VENDOR_CLIENT_SECRET`; npm start
 * gives its workers the secret of the simulator it starts). There is no default credential.
 */
export function getVendor(): LockVendor {
  if (vendor) return vendor;
  const kind = process.env.LOCK_VENDOR ?? 'simulator';
  if (kind !== 'simulator' && kind !== 'http') throw new Error(`unknown LOCK_VENDOR "${kind}"`);
  const baseUrl = process.env.LOCK_VENDOR_URL;
  if (!baseUrl) throw new Error('LOCK_VENDOR_URL is not set (npm start sets it to the simulator)');
  const clientId = process.env.LOCK_VENDOR_CLIENT_ID;
  const clientSecret = process.env.LOCK_VENDOR_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    throw new Error(
      'LOCK_VENDOR_CLIENT_ID and LOCK_VENDOR_CLIENT_SECRET must be set: the lock vendor has no default credentials (npm start sets them for the simulator it starts)',
    );
  }
  vendor = createHttpVendor({
    baseUrl,
    clientId,
    clientSecret,
    timeoutMs: Number(process.env.LOCK_VENDOR_TIMEOUT_MS ?? 10_000),
  });
  return vendor;
}

/** For tests: use this vendor instead of the configured one. */
export function setVendorForTests(next: LockVendor | null): void {
  vendor = next;
}
