import { randomInt } from 'node:crypto';
import type { Actor } from '../audit/actor';
import { asService } from '../db/tx';
import { AppError, isAppError } from '../errors';
import { assignInstallDevice } from './locks';
import { tenantProviderName } from './tenant-provider';

// A simulated lock (decision 032): on an install whose lock account is the simulator `npm start` runs
// on this machine, a tenant may give itself a new simulated device from the Locks page, so a new
// organisation can try doors without hardware and without the operator's `lock-assign`. Never where
// the install's lock account could be a real vendor's.

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether this install offers simulated locks: its lock account is the simulator (`LOCK_VENDOR`
 * unset or `simulator`) at a loopback address (`LOCK_VENDOR_URL`, the launcher's own simulator).
 */
export function simulatedLocksOffered(): boolean {
  if ((process.env.LOCK_VENDOR ?? 'simulator') !== 'simulator') return false;
  const url = process.env.LOCK_VENDOR_URL;
  if (!url || !URL.canParse(url)) return false;
  return LOOPBACK.has(new URL(url).hostname);
}

/**
 * Gives the tenant a new simulated lock: a device id nobody holds, assigned to it as `lock-assign`
 * does (audited `lock.assigned`); the simulator makes the device on first use. Refused
 * (`not_available`) where simulated locks are not offered or the tenant drives its own provider.
 */
export async function addSimulatedLock(input: { tenantId: string; actor: Actor }): Promise<{
  lockId: string;
  deviceId: string;
}> {
  const { tenantId, actor } = input;
  if (!simulatedLocksOffered() || (await tenantProviderName(tenantId)) !== 'simulator')
    throw new AppError('not_available', 'Simulated locks are not offered here.');
  for (let attempt = 1; ; attempt++) {
    // A TTLock lock id (an Int), drawn at random; one another tenant holds is drawn again.
    const deviceId = String(randomInt(100_000_000, 2_000_000_000));
    try {
      const lock = await asService({ tenantId }, (tx) => assignInstallDevice(tx, { tenantId, deviceId, actor }));
      return { lockId: lock.id, deviceId };
    } catch (error) {
      if (attempt >= 5 || !isAppError(error) || error.code !== 'conflict') throw error;
    }
  }
}
