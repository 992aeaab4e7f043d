import { openIncident, resolveIncident } from '../alerts/incidents';
import { asService } from '../db/tx';
import { logger } from '../log/logger';
import { getVendor } from '../vendor/get-vendor';
import type { VendorResult } from '../vendor/port';

export type JobAttempt = { tenantId: string; keyId: string; attempt: number; maxAttempts: number };

/** Thrown to let the job queue retry a retryable vendor failure with its backoff. */
export class RetryableVendorError extends Error {
  constructor(readonly code: string) {
    super(`lock vendor failed with ${code}; will retry`);
  }
}

async function loadKey(tenantId: string, keyId: string) {
  const rows = await asService({ tenantId }, (tx) =>
    tx.accessKey.findMany({ where: { tenantId, id: keyId }, include: { room: { select: { lockDeviceRef: true, label: true } } } }),
  );
  return rows[0] ?? null;
}

async function settle(job: JobAttempt, result: VendorResult<unknown>, kind: 'program' | 'remove', onSuccess: Record<string, unknown>): Promise<void> {
  const { tenantId, keyId } = job;
  const conditionKey = `vendor_${kind}_failed:${keyId}`;
  if (result.ok) {
    await asService({ tenantId }, async (tx) => {
      if (kind === 'program') {
        // The key may have ended while the lock was being programmed: then its removal job comes
        // next and must still see `pending`, so only a live key becomes `synced` here.
        await tx.$executeRaw`update access_keys set
            vendor_key_id = coalesce(${(onSuccess.vendorKeyId as string | undefined) ?? null}, vendor_key_id), vendor_error = null,
            vendor_sync = case when status in ('pre_issued', 'active') then 'synced'::vendor_sync else vendor_sync end
          where tenant_id = ${tenantId}::uuid and id = ${keyId}::uuid`;
      } else {
        await tx.accessKey.update({ where: { id: keyId }, data: { ...onSuccess, vendorError: null } });
      }
      await resolveIncident(tx, { tenantId, conditionKey });
    });
    return;
  }
  const final = !result.retryable || job.attempt >= job.maxAttempts;
  if (!final) {
    await asService({ tenantId }, (tx) => tx.accessKey.update({ where: { id: keyId }, data: { vendorError: result.code } }));
    throw new RetryableVendorError(result.code);
  }
  logger.warn({ keyId, vendorCode: result.code, kind, attempt: job.attempt }, 'lock vendor command failed for good');
  await asService({ tenantId }, async (tx) => {
    await tx.accessKey.update({ where: { id: keyId }, data: { vendorSync: 'failed', vendorError: result.code } });
    await openIncident(tx, {
      tenantId,
      conditionKey,
      kind: `vendor_${kind}_failed`,
      severity: kind === 'remove' ? 'critical' : 'warning',
      summary:
        kind === 'remove'
          ? `A revoked key could not be removed from the lock (${result.code}); the lock may still accept it.`
          : `A key could not be programmed on the lock (${result.code}); the guest's PIN will not open the door.`,
      detail: { keyId, vendorCode: result.code, attempts: job.attempt },
    });
  });
}

/**
 * Programs a key's PIN on its lock (the outbox job `vendor_program_key`). A retry first asks the
 * vendor for a code carrying this key's id, so a call whose answer was lost never programs twice.
 */
export async function programKeyOnLock(job: JobAttempt): Promise<void> {
  const key = await loadKey(job.tenantId, job.keyId);
  if (!key || key.vendorSync === 'synced' || key.vendorKeyId) return;
  const live = key.status === 'pre_issued' || key.status === 'active';
  if (!live) return; // ended before it reached the lock; its removal job runs next in the same queue
  const deviceRef = key.room.lockDeviceRef;
  if (!deviceRef) {
    logger.warn({ keyId: key.id }, 'room has no lock device; nothing to program');
    await settle(job, { ok: true, data: null }, 'program', { vendorSync: 'synced' });
    return;
  }
  const vendor = getVendor();
  const correlationId = `${key.id}:program:${job.attempt}`;
  if (job.attempt > 1) {
    const found = await vendor.findCode({ deviceRef, clientRef: key.id, correlationId });
    if (found.ok && found.data) {
      await settle(job, found, 'program', { vendorSync: 'synced', vendorKeyId: found.data.vendorKeyId });
      return;
    }
    if (!found.ok) return settle(job, found, 'program', {});
  }
  const result = await vendor.programCode({ deviceRef, pin: key.pin, validFrom: key.validFrom, expiresAt: key.expiresAt, clientRef: key.id, correlationId });
  await settle(job, result, 'program', result.ok ? { vendorSync: 'synced', vendorKeyId: result.data.vendorKeyId } : {});
}

/** Removes an ended key's code from its lock (the outbox job `vendor_remove_key`). */
export async function removeKeyFromLock(job: JobAttempt): Promise<void> {
  const key = await loadKey(job.tenantId, job.keyId);
  if (!key || key.status === 'pre_issued' || key.status === 'active' || key.vendorSync === 'synced') return;
  const deviceRef = key.room.lockDeviceRef;
  if (!deviceRef) {
    await settle(job, { ok: true, data: null }, 'remove', { vendorSync: 'synced' });
    return;
  }
  const vendor = getVendor();
  const correlationId = `${key.id}:remove:${job.attempt}`;
  let vendorKeyId = key.vendorKeyId;
  if (!vendorKeyId) {
    // Never confirmed as programmed: make sure no lost call left it on the lock.
    const found = await vendor.findCode({ deviceRef, clientRef: key.id, correlationId });
    if (!found.ok) return settle(job, found, 'remove', {});
    if (!found.data) return settle(job, { ok: true, data: null }, 'remove', { vendorSync: 'synced' });
    vendorKeyId = found.data.vendorKeyId;
  }
  const result = await vendor.removeCode({ deviceRef, vendorKeyId, correlationId });
  await settle(job, result, 'remove', { vendorSync: 'synced' });
}
