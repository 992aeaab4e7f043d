import { createHash } from 'node:crypto';

/**
 * Which account a lock's device is reached through (`locks.account`, decision 020): the install's
 * own (`install`: LOCK_VENDOR_URL's account, provider `simulator`), or `acct:<sha256>` of what names
 * a tenant's own account — never a secret in clear. With the provider and the device id it is the
 * key of `lock_devices`: a device belongs to at most one tenant.
 */
export const INSTALL_ACCOUNT = 'install';

/** `acct:<sha256>` of the parts that name an account. */
export function accountIdentity(...parts: string[]): string {
  return `acct:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

/** A Seam account by its API key (the one identity a key gives without asking Seam). */
export const seamAccount = (apiKey: string) => accountIdentity('seam', apiKey);
