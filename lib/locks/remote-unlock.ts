import { z } from 'zod';
import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, runStatements } from '../db/tx';
import { AppError } from '../errors';
import { rateLimitHits } from '../ratelimit/rate-limit';
import { canUnlockRemotely } from './remote-unlock-capability';
import { lockProviderFor } from './tenant-provider';

export const ZRemoteUnlockBodySchema = z
  .object({ reason: z.string().trim().min(1, 'Say why the door is opened.').max(300, 'At most 300 characters.') })
  .strict();

/** A lock opened remotely at most this often per lock, and by one person this often across the tenant. */
export const UNLOCKS_PER_LOCK = { windowSeconds: 60, limit: 3 } as const;
export const UNLOCKS_PER_PERSON = { windowSeconds: 600, limit: 20 } as const;

const cannotUnlock = (lockId: string, provider: string) =>
  new AppError('not_supported', 'This lock cannot be opened remotely.', { lockId, provider });

export type RemoteUnlockResult = { id: string; lockId: string; status: 'unlocked' | 'pending'; actionId: string };

/**
 * Opens one of the tenant's doors now through its provider (Seam `locks/unlock_door`), for a reason: rate limited per
 * lock and per person, written (`remote_unlocks`) before the provider is asked so the entry the lock then reports
 * names the person (through the provider's action id), and audited `lock.remote_unlocked` with the provider's
 * answer. A provider or device that cannot is 409 `not_supported`; another tenant's lock `not_found`.
 */
export async function remoteUnlock(input: {
  tenantId: string;
  lockId: string;
  reason: string;
  actor: Actor;
}): Promise<RemoteUnlockResult> {
  const { tenantId, lockId, reason, actor } = input;
  const lock = await asService({ tenantId }, (tx) =>
    tx.lock.findFirst({
      where: { tenantId, id: lockId },
      select: { id: true, name: true, provider: true, deviceId: true },
    }),
  );
  if (!lock) throw new AppError('not_found', 'No such lock.');
  await runStatements({ role: 'app_service', tenantId }, [
    rateLimitHits([
      { bucket: `remote-unlock:lock:${lockId}`, ...UNLOCKS_PER_LOCK },
      { bucket: `remote-unlock:actor:${tenantId}:${actor.id ?? actor.label}`, ...UNLOCKS_PER_PERSON },
    ]),
  ]);
  // Seam's adapter opens doors; TTLock's gateway unlock (and so the simulator's) is not built yet.
  if (!canUnlockRemotely(lock.provider)) throw cannotUnlock(lockId, lock.provider);
  const connection = await lockProviderFor(tenantId, lock.provider);
  if (!connection.ok)
    throw new AppError('unavailable', 'The lock provider cannot be reached now.', { code: connection.code });
  const provider = connection.data;
  if (!provider.unlockDoor) throw cannotUnlock(lockId, lock.provider);
  const { id } = await asService({ tenantId }, (tx) =>
    tx.remoteUnlock.create({
      data: { tenantId, lockId, userId: actor.type === 'user' ? actor.id : null, actorLabel: actor.label, reason },
      select: { id: true },
    }),
  );
  const answer = await provider.unlockDoor({ deviceId: lock.deviceId, correlationId: `remote-unlock:${id}` });
  const outcome = answer.ok ? answer.data.status : 'failed';
  await asService({ tenantId }, async (tx) => {
    await tx.remoteUnlock.update({
      where: { tenantId_id: { tenantId, id } },
      data: answer.ok
        ? { status: answer.data.status, actionId: answer.data.actionId }
        : { status: 'failed', error: answer.code.slice(0, 200) },
    });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'lock.remote_unlocked',
      subject: { type: 'lock', id: lockId },
      reason,
      metadata: { lock: lock.name, outcome, error: answer.ok ? null : answer.code },
    });
  });
  if (!answer.ok) {
    if (answer.code === 'not_supported') throw cannotUnlock(lockId, lock.provider);
    throw new AppError('unavailable', 'The lock did not open: its provider answered with an error.', {
      code: answer.code,
    });
  }
  return { id, lockId, status: answer.data.status, actionId: answer.data.actionId };
}
