import { addKeyToIncident, clearKeyFromIncidents } from '../alerts/incidents';
import { asService } from '../db/tx';
import { logger } from '../log/logger';
import { getVendor } from '../locks/get-vendor';
import type { LockProvider, LockResult } from '../locks/provider';

export type JobAttempt = { tenantId: string; keyId: string; attempt: number; maxAttempts: number };

/** Thrown to let the job queue retry a retryable vendor failure with its backoff. */
export class RetryableVendorError extends Error {
  constructor(readonly code: string) {
    super(`lock vendor failed with ${code}; will retry`);
  }
}

export const NO_LOCK_DEVICE = 'no_lock_device';

type Kind = 'program' | 'remove';

/** The incidents a key can count against, one per lock and kind (and per room without a lock). */
const conditionKey = {
  failed: (kind: Kind, deviceRef: string) => `lock_${kind}_failed:${deviceRef}`,
  noLock: (roomId: string) => `room_without_lock:${roomId}`,
};

async function loadKey(tenantId: string, keyId: string) {
  const rows = await asService({ tenantId }, (tx) =>
    tx.accessKey.findMany({
      where: { tenantId, id: keyId },
      include: { room: { select: { lockDeviceRef: true, label: true } } },
    }),
  );
  return rows[0] ?? null;
}

type LoadedKey = NonNullable<Awaited<ReturnType<typeof loadKey>>>;

/**
 * The code carrying this key's id on the lock, if any: how a retry finds what an earlier, lost
 * call set. Two codes claiming one key is not something to act on.
 */
async function findOurCode(
  vendor: LockProvider,
  input: { deviceId: string; clientRef: string; correlationId: string },
): Promise<LockResult<{ codeId: string } | null>> {
  const listed = await vendor.listCodes({ deviceId: input.deviceId, correlationId: input.correlationId });
  if (!listed.ok) return listed;
  const ours = listed.data.filter((code) => code.clientRef === input.clientRef);
  if (ours.length > 1) return { ok: false, code: 'malformed_response', retryable: true };
  return { ok: true, data: ours[0] ? { codeId: ours[0].codeId } : null };
}

/**
 * Records a vendor command's outcome. Success: the key's lock-side state (`vendor_sync`, the code's
 * id) and the key comes off its lock's failure incidents. A retryable failure is rethrown for the
 * queue's backoff; a final one marks the key `failed` and counts it on the one incident of its lock
 * and kind.
 */
async function settle(
  job: JobAttempt,
  key: LoadedKey,
  deviceRef: string,
  result: LockResult<unknown>,
  kind: Kind,
  vendorKeyId?: string,
): Promise<void> {
  const { tenantId, keyId } = job;
  if (result.ok) {
    await asService({ tenantId }, async (tx) => {
      if (kind === 'program') {
        // The key may have ended while the lock was being programmed: then its removal job comes
        // next and must still see `pending`, so only a live key becomes `synced` here.
        await tx.$executeRaw`update access_keys set
            vendor_key_id = coalesce(${vendorKeyId ?? null}, vendor_key_id), vendor_error = null,
            vendor_sync = case when status in ('pre_issued', 'active') then 'synced'::vendor_sync else vendor_sync end
          where tenant_id = ${tenantId}::uuid and id = ${keyId}::uuid`;
      } else {
        await tx.accessKey.update({ where: { id: keyId }, data: { vendorSync: 'synced', vendorError: null } });
      }
      const cleared = [conditionKey.failed('program', deviceRef), conditionKey.noLock(key.roomId)];
      if (kind === 'remove') cleared.push(conditionKey.failed('remove', deviceRef));
      await clearKeyFromIncidents(tx, { tenantId, conditionKeys: cleared, keyId });
    });
    return;
  }
  const final = !result.retryable || job.attempt >= job.maxAttempts;
  if (!final) {
    await asService({ tenantId }, (tx) =>
      tx.accessKey.update({ where: { id: keyId }, data: { vendorError: result.code } }),
    );
    throw new RetryableVendorError(result.code);
  }
  logger.warn({ keyId, vendorCode: result.code, kind, attempt: job.attempt }, 'lock vendor command failed for good');
  await asService({ tenantId }, async (tx) => {
    await tx.accessKey.update({ where: { id: keyId }, data: { vendorSync: 'failed', vendorError: result.code } });
    await addKeyToIncident(tx, {
      tenantId,
      keyId,
      conditionKey: conditionKey.failed(kind, deviceRef),
      kind: `lock_${kind}_failed`,
      severity: kind === 'remove' ? 'critical' : 'warning',
      summary:
        kind === 'remove'
          ? `Revoked codes could not be removed from lock ${deviceRef} (${result.code}); the lock may still accept them.`
          : `Codes could not be programmed on lock ${deviceRef} (${result.code}); those guests' PINs will not open the door.`,
      detail: { deviceRef, lastCode: result.code },
    });
  });
}

/**
 * Programs a key's PIN on its lock (the outbox job `vendor_program_key`). A retry first asks the
 * vendor for a code carrying this key's id, so a call whose answer was lost never programs twice.
 * A room without a lock device gets no "synced": the key is `failed` (`no_lock_device`), counted
 * on the room's incident, and the guest is not promised a PIN.
 */
export async function programKeyOnLock(job: JobAttempt): Promise<void> {
  const key = await loadKey(job.tenantId, job.keyId);
  if (!key || key.vendorSync === 'synced' || key.vendorKeyId) return;
  const live = key.status === 'pre_issued' || key.status === 'active';
  if (!live) return; // ended before it reached the lock; its removal job runs next in the same queue
  const deviceRef = key.lockDeviceRef ?? key.room.lockDeviceRef;
  if (!deviceRef) {
    logger.warn({ keyId: key.id }, 'room has no lock device; the key cannot be programmed');
    await asService({ tenantId: job.tenantId }, async (tx) => {
      await tx.accessKey.update({ where: { id: key.id }, data: { vendorSync: 'failed', vendorError: NO_LOCK_DEVICE } });
      await addKeyToIncident(tx, {
        tenantId: job.tenantId,
        keyId: key.id,
        conditionKey: conditionKey.noLock(key.roomId),
        kind: 'room_without_lock',
        severity: 'warning',
        summary: `Room ${key.room.label} has no lock device: its keys cannot be programmed.`,
        detail: { roomId: key.roomId },
      });
    });
    return;
  }
  if (!key.lockDeviceRef) {
    // Recorded before the first call: should the answer be lost, removal still knows where to look.
    await asService({ tenantId: job.tenantId }, (tx) =>
      tx.accessKey.updateMany({
        where: { tenantId: job.tenantId, id: key.id, lockDeviceRef: null },
        data: { lockDeviceRef: deviceRef },
      }),
    );
  }
  const vendor = getVendor();
  const correlationId = `${key.id}:program:${job.attempt}`;
  if (job.attempt > 1) {
    const found = await findOurCode(vendor, { deviceId: deviceRef, clientRef: key.id, correlationId });
    if (found.ok && found.data) return settle(job, key, deviceRef, found, 'program', found.data.codeId);
    if (!found.ok) return settle(job, key, deviceRef, found, 'program');
  }
  const result = await vendor.programCode({
    deviceId: deviceRef,
    pin: key.pin,
    validFrom: key.validFrom,
    expiresAt: key.expiresAt,
    clientRef: key.id,
    correlationId,
  });
  await settle(job, key, deviceRef, result, 'program', result.ok ? result.data.codeId : undefined);
}

/**
 * Removes an ended key's code from the lock it was sent to (the outbox job `vendor_remove_key`).
 * The key is `synced` only when the lock confirmed the code gone — or when no lock ever had it.
 */
export async function removeKeyFromLock(job: JobAttempt): Promise<void> {
  const key = await loadKey(job.tenantId, job.keyId);
  if (!key || key.status === 'pre_issued' || key.status === 'active' || key.vendorSync === 'synced') return;
  const deviceRef = key.lockDeviceRef ?? key.room.lockDeviceRef;
  if (!deviceRef) {
    // Never sent to any lock (the room has none): nothing opens a door with it.
    await asService({ tenantId: job.tenantId }, async (tx) => {
      await tx.accessKey.update({ where: { id: key.id }, data: { vendorSync: 'synced', vendorError: null } });
      await clearKeyFromIncidents(tx, {
        tenantId: job.tenantId,
        conditionKeys: [conditionKey.noLock(key.roomId)],
        keyId: key.id,
      });
    });
    return;
  }
  const vendor = getVendor();
  const correlationId = `${key.id}:remove:${job.attempt}`;
  let vendorKeyId = key.vendorKeyId;
  if (!vendorKeyId) {
    // Never confirmed as programmed: make sure no lost call left it on the lock.
    const found = await findOurCode(vendor, { deviceId: deviceRef, clientRef: key.id, correlationId });
    if (!found.ok || !found.data)
      return settle(job, key, deviceRef, found.ok ? { ok: true, data: null } : found, 'remove');
    vendorKeyId = found.data.codeId;
  }
  const result = await vendor.removeCode({ deviceId: deviceRef, codeId: vendorKeyId, correlationId });
  // Synced only once the provider says the code is gone; `removing` is asked again later.
  const removed: LockResult<unknown> =
    result.ok && result.data.state !== 'absent' ? { ok: false, code: 'removal_pending', retryable: true } : result;
  await settle(job, key, deviceRef, removed, 'remove');
}
