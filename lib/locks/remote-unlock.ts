import { z } from 'zod';
import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, effectStatement, runInTransaction, runStatements, sqlLiteral } from '../db/tx';
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

/** When a pending unlock's action is read again (Seam), and when one nothing confirms is given up (TTLock). */
export const CONFIRM_AFTER_SECONDS = 3;
export const UNCONFIRMED_AFTER_SECONDS = 300;
/** Reads of a pending action before it counts as unconfirmed (graphile-worker backs off between them). */
export const CONFIRM_ATTEMPTS = 8;

export type RemoteUnlockStatus = 'pending' | 'done' | 'failed';
export type RemoteUnlockResult = { id: string; lockId: string; status: RemoteUnlockStatus };

const cannotUnlock = (lockId: string, provider: string) =>
  new AppError('not_supported', 'This lock cannot be opened remotely.', { lockId, provider });

/**
 * Opens one of the tenant's doors now through its provider, for a reason (API.md: `POST /locks/{id}/unlock`). Refused
 * before anything is written: another tenant's or an unknown lock (`not_found`), a lock its provider cannot open
 * remotely (`not_supported`: a provider without it, a TTLock lock without a gateway), a blank reason
 * (`invalid_request`), too many (`rate_limited`, per lock and per person). Else the request is a `remote_unlocks` row
 * (who, why) written before the provider is asked, so the entry the lock then reports names the person, and the
 * provider's answer is its status — `done`, `pending` (confirmed later: the door's entry with its action id, or a job
 * that reads the action; an answer lost on the way waits for the door's record) or `failed` with the provider's code
 * — audited `door.unlocked_remotely` in the transaction that records it. Only a provider that says the device cannot
 * after all is an error then (`not_supported`), the attempt still recorded as failed. Never retried: a door opened
 * late is worse than one not opened.
 */
export async function remoteUnlock(input: {
  tenantId: string;
  lockId: string;
  reason: string;
  actor: Actor;
}): Promise<RemoteUnlockResult> {
  const { tenantId, lockId, actor } = input;
  const reason = ZRemoteUnlockBodySchema.shape.reason.safeParse(input.reason);
  if (!reason.success) throw new AppError('invalid_request', 'Say why the door is opened (at most 300 characters).');
  const lock = await asService({ tenantId }, (tx) =>
    tx.lock.findFirst({
      where: { tenantId, id: lockId },
      select: {
        id: true,
        name: true,
        provider: true,
        deviceId: true,
        offlineReason: true,
        rooms: { select: { roomId: true } },
      },
    }),
  );
  if (!lock) throw new AppError('not_found', 'No such lock.');
  // What we know already (the desk offers "Open door" by the same rule): remote-unlock-capability.ts.
  if (!canUnlockRemotely(lock)) throw cannotUnlock(lockId, lock.provider);
  await runStatements({ role: 'app_service', tenantId }, [
    rateLimitHits([
      { bucket: `remote-unlock:lock:${lockId}`, ...UNLOCKS_PER_LOCK },
      { bucket: `remote-unlock:actor:${tenantId}:${actor.type}:${actor.id ?? actor.label}`, ...UNLOCKS_PER_PERSON },
    ]),
  ]);
  const { id } = await asService({ tenantId }, (tx) =>
    tx.remoteUnlock.create({
      data: {
        tenantId,
        lockId,
        userId: actor.type === 'user' ? actor.id : null,
        actorType: actor.type,
        actorId: actor.id,
        actorLabel: actor.label,
        reason: reason.data,
      },
      select: { id: true },
    }),
  );
  // The request is accepted: from here on the provider's answer is the outcome, never an exception.
  const connection = await lockProviderFor(tenantId, lock.provider);
  const answer =
    connection.ok && connection.data.unlockDoor
      ? await connection.data.unlockDoor({ deviceId: lock.deviceId, correlationId: `remote-unlock:${id}` })
      : connection.ok
        ? ({ ok: false, code: 'not_supported', retryable: false } as const)
        : connection;
  const status: RemoteUnlockStatus = answer.ok ? answer.data.status : 'failed';
  const error = answer.ok ? null : answer.code.slice(0, 200);
  const actionId = answer.ok ? answer.data.actionId : null;
  const rooms = lock.rooms.map((r) => r.roomId);
  const settled = await asService({ tenantId }, async (tx) => {
    // The door's entry may have confirmed it already (it names the unlock by its action id): `done` is never undone.
    const { count } = await tx.remoteUnlock.updateMany({
      where: { tenantId, id, status: { in: ['requested', 'pending'] } },
      data: { status, error, actionId, updatedAt: new Date() },
    });
    if (status === 'pending') {
      // A pending unlock converges: its action read later (Seam), or — nothing to read (TTLock) — given up as
      // unconfirmed if no entry of the door confirmed it by then.
      const delay = actionId ? CONFIRM_AFTER_SECONDS : UNCONFIRMED_AFTER_SECONDS;
      await runInTransaction(tx, [
        effectStatement(
          `select app_enqueue_job('confirm_remote_unlock',
                                  ${sqlLiteral(JSON.stringify({ tenantId, remoteUnlockId: id }), 'jsonb')},
                                  null, ${sqlLiteral(`remote-unlock:${id}`, 'text')},
                                  now() + make_interval(secs => ${delay}), ${actionId ? CONFIRM_ATTEMPTS : 1})`,
        ),
      ]);
    }
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'door.unlocked_remotely',
      subject: { type: 'lock', id: lockId },
      roomId: rooms.length === 1 ? rooms[0] : null,
      reason: reason.data,
      metadata: { lock: lock.name, provider: lock.provider, remoteUnlockId: id, status, error },
    });
    if (count === 1) return status;
    const row = await tx.remoteUnlock.findFirst({ where: { tenantId, id }, select: { status: true } });
    return (row?.status ?? status) as RemoteUnlockStatus;
  });
  if (!answer.ok && answer.code === 'not_supported') throw cannotUnlock(lockId, lock.provider);
  return { id, lockId, status: settled };
}
