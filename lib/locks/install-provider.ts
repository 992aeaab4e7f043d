import type { LockProvider } from './provider';
import { createTtlockProvider } from './ttlock';

let installed: LockProvider | null = null;

/**
 * The install's own lock provider, the simulator (TTLock's open platform) at `LOCK_VENDOR_URL`, for
 * tenants on `simulator` (lib/locks/tenant-provider.ts), with the client credentials and account
 * given explicitly (`LOCK_VENDOR_CLIENT_ID`, `LOCK_VENDOR_CLIENT_SECRET`, `LOCK_VENDOR_USERNAME`,
 * `LOCK_VENDOR_PASSWORD`; npm start gives its workers those of the simulator it starts). There is
 * no default credential.
 */
export function installLockProvider(): LockProvider {
  if (installed) return installed;
  const baseUrl = process.env.LOCK_VENDOR_URL;
  if (!baseUrl) throw new Error('LOCK_VENDOR_URL is not set (npm start sets it to the simulator)');
  const clientId = process.env.LOCK_VENDOR_CLIENT_ID;
  const clientSecret = process.env.LOCK_VENDOR_CLIENT_SECRET;
  const username = process.env.LOCK_VENDOR_USERNAME;
  const password = process.env.LOCK_VENDOR_PASSWORD;
  if (!clientId || !clientSecret || !username || !password) {
    throw new Error(
      'LOCK_VENDOR_CLIENT_ID, LOCK_VENDOR_CLIENT_SECRET, LOCK_VENDOR_USERNAME and LOCK_VENDOR_PASSWORD must be set: the lock provider has no default credentials (npm start sets them for the simulator it starts)',
    );
  }
  installed = createTtlockProvider({
    name: 'simulator',
    baseUrl,
    clientId,
    clientSecret,
    username,
    password,
    cacheScope: 'install',
    timeoutMs: Number(process.env.LOCK_VENDOR_TIMEOUT_MS ?? 10_000),
  });
  return installed;
}

/** For tests: use this provider instead of the configured one. */
export function setInstallLockProviderForTests(next: LockProvider | null): void {
  installed = next;
}
