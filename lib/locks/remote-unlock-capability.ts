import type { LockProvider } from '../db/generated/enums';

/**
 * The lock providers whose adapter opens a door on request (remote unlock). `remoteUnlock` refuses the others with
 * 409 `not_supported`, and the desk does not offer "Open door" for their locks.
 */
export const REMOTE_UNLOCK_PROVIDERS: readonly LockProvider[] = ['seam'];

/** Whether a lock of this provider can be opened remotely from the desk. */
export function canUnlockRemotely(provider: string): boolean {
  return (REMOTE_UNLOCK_PROVIDERS as readonly string[]).includes(provider);
}
