'use server';

import { z } from 'zod';
import { addRoomLock, syncLocks } from '@/lib/locks/locks';
import { reconcileLock } from '@/lib/locks/reconcile';
import { staffAction } from '@/app/_server/action';

const LOCKS = { path: '/manage/locks' } as const;

/**
 * The manager's "Re-sync" of one lock of the current tenant: asks the provider which codes the lock
 * holds, sends missing and failed codes again, removes ended ones (audited `lock.resynced`), and
 * answers what it found. A provider that cannot be reached is `unavailable` with its failure code.
 */
export const resyncLockAction = staffAction(
  { name: 'resyncLock', permission: 'locks.manage', input: z.object({ lockId: z.uuid() }), revalidate: LOCKS },
  async ({ input: { lockId }, tenantId, actor }) => {
    const report = await reconcileLock({ tenantId, lockId, retryFailed: true, actor });
    return {
      lockId,
      sentAgain: report.missingKeyIds.length + report.retriedKeyIds.length,
      removing: report.lingeringKeyIds.length,
      foreign: report.foreignCodes,
      // Compared with the provider's records only, when the lock itself could not be reached.
      unreached: report.reached ? null : report.offlineReason,
    };
  },
);

/** "Import locks from provider": the provider's devices become (or refresh) the tenant's locks, audited. */
export const importLocksAction = staffAction(
  { name: 'importLocks', permission: 'locks.manage', input: z.object({}), revalidate: LOCKS },
  async ({ tenantId, actor }) => {
    const { imported, locks } = await syncLocks({ tenantId, actor });
    return { imported, total: locks.length };
  },
);

/** Makes a lock one of a room's doors (its own, a shared entrance…); the room's live codes go to it too. */
export const addRoomLockAction = staffAction(
  {
    name: 'addRoomLock',
    permission: 'locks.manage',
    input: z.object({ lockId: z.uuid(), roomId: z.uuid(), role: z.enum(['room', 'entrance', 'other']) }),
    // The whole manage area: a room's page lists its doors too.
    revalidate: { path: '/manage', type: 'layout' },
  },
  async ({ input: { lockId, roomId, role }, tenantId, actor }) => {
    await addRoomLock({ tenantId, lockId, roomId, role, actor });
    return { lockId, roomId };
  },
);
