'use server';

import { z } from 'zod';
import { connectLockProvider, type TLockProviderChoice } from '@/lib/locks/connect-lock-provider';
import { addRoomLock, syncLocks } from '@/lib/locks/locks';
import { addSimulatedLock } from '@/lib/locks/simulated-lock';
import { reconcileLock } from '@/lib/locks/reconcile';
import { isAppError } from '@/lib/errors';
import { refuse, staffAction } from '@/app/_server/action';

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

/** "Add a simulated lock" (decision 032): a new simulator device becomes the tenant's lock, audited. */
export const addSimulatedLockAction = staffAction(
  { name: 'addSimulatedLock', permission: 'locks.manage', input: z.object({}), revalidate: LOCKS },
  ({ tenantId, actor }) => addSimulatedLock({ tenantId, actor }),
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

// A form's empty field is "not given"; surrounding spaces are paste accidents.
const text = (max: number) => z.string('locks.connect.required').trim().min(1, 'locks.connect.required').max(max);
const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), text(max).optional());

/**
 * "Lock provider": the install's locks (those the operator assigns), or the tenant's own Seam or
 * TTLock account with its credentials — checked at the provider before they are stored, never
 * shown back (only the provider, client id, username and endpoint return to the form on a refusal).
 */
export const connectLockProviderAction = staffAction(
  {
    name: 'connectLockProvider',
    permission: 'locks.manage',
    input: z.discriminatedUnion(
      'provider',
      [
        z.object({ provider: z.literal('simulator') }),
        z.object({ provider: z.literal('seam'), apiKey: text(4096) }),
        z.object({
          provider: z.literal('ttlock'),
          clientId: text(200),
          clientSecret: text(500),
          username: text(200),
          password: text(500),
          endpoint: optionalText(500),
        }),
      ],
      'locks.connect.invalidProvider',
    ),
    echo: { provider: 'text', clientId: 'text', username: 'text', endpoint: 'text' },
    revalidate: LOCKS,
  },
  async ({ input, tenantId, actor }) => {
    try {
      return await connectLockProvider({ tenantId, choice: input as TLockProviderChoice, actor });
    } catch (error) {
      if (!isAppError(error) || error.code !== 'invalid_request') throw error;
      if (error.details.problem === 'refused')
        return refuse('locks.connect.refused', { field: input.provider === 'seam' ? 'apiKey' : 'clientSecret' });
      if (error.details.problem === 'unreachable') return refuse('locks.connect.unreachable', { field: 'endpoint' });
      return refuse(error.details.problem === 'not_https' ? 'locks.connect.endpointHttps' : 'locks.connect.endpoint', {
        field: 'endpoint',
      });
    }
  },
);
