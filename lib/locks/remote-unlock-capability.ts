import type { LockProvider } from '../db/generated/enums';

/** The lock providers with a remote unlock: Seam (`locks/unlock_door`), TTLock and the simulator (the gateway's). */
export const REMOTE_UNLOCK_PROVIDERS: readonly LockProvider[] = ['seam', 'ttlock', 'simulator'];

/**
 * Whether a lock can be opened remotely, as far as we know before asking: its provider has a remote unlock, the
 * device is still the tenant's (a released device reaches nothing), and a TTLock (or simulated) lock has a gateway —
 * its unlock goes through one. `remoteUnlock` refuses the others with 409 `not_supported`, and the desk offers
 * "Open door" only for these.
 */
export function canUnlockRemotely(lock: { provider: string; deviceId: string; offlineReason: string | null }): boolean {
  return (
    (REMOTE_UNLOCK_PROVIDERS as readonly string[]).includes(lock.provider) &&
    !lock.deviceId.startsWith('released:') &&
    !(lock.provider !== 'seam' && lock.offlineReason === 'no_gateway')
  );
}
