'use server';

import { z } from 'zod';
import { connectLockProvider, testLockProvider, type TLockProviderChoice } from '@/lib/locks/connect-lock-provider';
import { addRoomLock, syncLocks } from '@/lib/locks/locks';
import { removeRoomDoor } from '@/lib/locks/remove-room-door';
import { replaceRoomLock } from '@/lib/locks/replace-room-lock';
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

/** "Add one lock by its device id": that device of the tenant's own provider account becomes its lock, audited. */
export const addLockByDeviceAction = staffAction(
  {
    name: 'addLockByDevice',
    permission: 'locks.manage',
    input: z.object({
      deviceId: z.string().trim().min(1, 'locks.byDevice.required').max(200, 'locks.byDevice.required'),
    }),
    echo: { deviceId: 'text' },
    revalidate: LOCKS,
  },
  async ({ input: { deviceId }, tenantId, actor }) => {
    const { imported, locks } = await syncLocks({ tenantId, actor, deviceId });
    return { imported, name: locks[0]?.name ?? deviceId };
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

/** A door change refused for a reason of its own, in the manager's words (else the action's message for the code). */
function refuseDoorChange(error: unknown) {
  if (!isAppError(error) || error.code !== 'conflict') throw error;
  const reason = error.details.reason;
  if (reason === 'last_door') return refuse('rooms.doors.lastDoor', { vars: { keys: Number(error.details.liveKeys) } });
  if (reason === 'offline_code') return refuse('rooms.doors.offlineCode');
  if (reason === 'lock_in_use') return refuse('rooms.doors.lockInUse');
  throw error;
}

/**
 * "Remove door" on a room's page: the lock stops being the room's door and the room's live codes come
 * off it (the key's removal job); the room's last door is refused while stays hold live keys.
 */
export const removeRoomDoorAction = staffAction(
  {
    name: 'removeRoomDoor',
    permission: 'locks.manage',
    input: z.object({ lockId: z.uuid(), roomId: z.uuid() }),
    revalidate: { path: '/manage', type: 'layout' },
  },
  async ({ input: { lockId, roomId }, tenantId, actor }) => {
    try {
      return await removeRoomDoor({ tenantId, lockId, roomId, actor });
    } catch (error) {
      return refuseDoorChange(error);
    }
  },
);

/** "Replace lock" on a room's door: another unassigned lock takes the door and every live code of the room. */
export const replaceRoomLockAction = staffAction(
  {
    name: 'replaceRoomLock',
    permission: 'locks.manage',
    input: z.object({ roomId: z.uuid(), oldLockId: z.uuid(), newLockId: z.uuid('rooms.doors.chooseLock') }),
    revalidate: { path: '/manage', type: 'layout' },
  },
  async ({ input: { roomId, oldLockId, newLockId }, tenantId, actor }) => {
    try {
      return await replaceRoomLock({ tenantId, roomId, oldLockId, newLockId, actor });
    } catch (error) {
      return refuseDoorChange(error);
    }
  },
);

// A form's empty field is "not given"; surrounding spaces are paste accidents.
const text = (max: number) => z.string('locks.connect.required').trim().min(1, 'locks.connect.required').max(max);
const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), text(max).optional());

const LOCK_PROVIDER_INPUT = z.discriminatedUnion(
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
);
const LOCK_PROVIDER_ECHO = { provider: 'text', clientId: 'text', username: 'text', endpoint: 'text' } as const;

/** A provider's refusal of credentials in the manager's words: which one it refused, or why it was not asked. */
function refuseCredentials(error: unknown) {
  if (!isAppError(error) || error.code !== 'invalid_request') throw error;
  const { problem, credential } = error.details;
  if (problem === 'refused') {
    if (credential === 'client') return refuse('locks.connect.refusedClient', { field: 'clientSecret' });
    if (credential === 'account') return refuse('locks.connect.refusedAccount', { field: 'password' });
    return refuse('locks.connect.refusedKey', { field: 'apiKey' });
  }
  if (problem === 'unreachable') return refuse('locks.connect.unreachable', { field: 'endpoint' });
  return refuse(problem === 'not_https' ? 'locks.connect.endpointHttps' : 'locks.connect.endpoint', {
    field: 'endpoint',
  });
}

/**
 * "Lock provider": the install's locks (those the operator assigns), or the tenant's own Seam or
 * TTLock account with its credentials — checked at the provider before they are stored, never
 * shown back (only the provider, client id, username and endpoint return to the form on a refusal).
 */
export const connectLockProviderAction = staffAction(
  {
    name: 'connectLockProvider',
    permission: 'locks.manage',
    input: LOCK_PROVIDER_INPUT,
    echo: LOCK_PROVIDER_ECHO,
    revalidate: LOCKS,
  },
  async ({ input, tenantId, actor }) => {
    try {
      return await connectLockProvider({ tenantId, choice: input as TLockProviderChoice, actor });
    } catch (error) {
      return refuseCredentials(error);
    }
  },
);

/** "Test connection": the same check at the provider as saving, and nothing stored. */
export const testLockProviderAction = staffAction(
  { name: 'testLockProvider', permission: 'locks.manage', input: LOCK_PROVIDER_INPUT, echo: LOCK_PROVIDER_ECHO },
  async ({ input, tenantId }) => {
    try {
      return await testLockProvider({ tenantId, choice: input as TLockProviderChoice });
    } catch (error) {
      return refuseCredentials(error);
    }
  },
);
