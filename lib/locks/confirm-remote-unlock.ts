import { asService } from '../db/tx';
import { logger } from '../log/logger';
import { lockProviderFor } from './tenant-provider';

/** Thrown to have the worker read a pending action again later (graphile-worker's backoff). */
export class UnlockStillPendingError extends Error {
  constructor(remoteUnlockId: string) {
    super(`remote unlock ${remoteUnlockId} is still pending at its provider`);
    this.name = 'UnlockStillPendingError';
  }
}

/**
 * Converges a pending remote unlock (job `confirm_remote_unlock`): its provider's action read again (Seam's action
 * attempt) until it succeeds (`done`) or fails (`failed` with the provider's code); one the provider cannot say
 * anything more about (TTLock answers once, or its answer was lost), or still pending at the last attempt, is
 * `failed` `unconfirmed` unless the door's entry confirmed it meanwhile. Only a row still `pending` changes: an entry
 * that confirmed it first wins. Returns the status it leaves.
 */
export async function confirmRemoteUnlock(input: {
  tenantId: string;
  remoteUnlockId: string;
  attempt: number;
  maxAttempts: number;
}): Promise<'pending' | 'done' | 'failed' | 'settled'> {
  const { tenantId, remoteUnlockId } = input;
  const row = await asService({ tenantId }, async (tx) => {
    const unlock = await tx.remoteUnlock.findFirst({
      where: { tenantId, id: remoteUnlockId },
      select: { status: true, actionId: true, lockId: true },
    });
    if (!unlock) return null;
    const lock = await tx.lock.findFirst({
      where: { tenantId, id: unlock.lockId },
      select: { provider: true, deviceId: true },
    });
    return lock ? { ...unlock, ...lock } : null;
  });
  if (!row || row.status !== 'pending') return 'settled';
  const settle = async (status: 'done' | 'failed', error: string | null) => {
    const { count } = await asService({ tenantId }, (tx) =>
      tx.remoteUnlock.updateMany({
        where: { tenantId, id: remoteUnlockId, status: 'pending' },
        data: { status, error, updatedAt: new Date() },
      }),
    );
    return count === 1 ? status : 'settled';
  };
  const last = input.attempt >= input.maxAttempts;
  if (!row.actionId) return settle('failed', 'unconfirmed');
  const connection = await lockProviderFor(tenantId, row.provider);
  if (connection.ok && !connection.data.readUnlock) return settle('failed', 'unconfirmed');
  const read =
    connection.ok && connection.data.readUnlock
      ? await connection.data.readUnlock({
          deviceId: row.deviceId,
          actionId: row.actionId,
          correlationId: `remote-unlock:${remoteUnlockId}`,
        })
      : null;
  if (read?.ok && read.data.status !== 'pending') return settle(read.data.status, read.data.error);
  if (last) return settle('failed', 'unconfirmed');
  if (read && !read.ok) logger.warn({ remoteUnlockId, code: read.code }, 'remote unlock action could not be read');
  throw new UnlockStillPendingError(remoteUnlockId);
}
