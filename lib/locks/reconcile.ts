import { createHash } from 'node:crypto';
import { openIncidentOnce, resolveIncidentStatement } from '../incidents/incidents';
import type { Actor } from '../audit/actor';
import {
  asService,
  effectStatement,
  runInTransaction,
  serviceStatement,
  sqlLiteral,
  statement,
  type Tx,
} from '../db/tx';
import { lockKeysBeforeDoorsStatements } from './lock-order';
import type { LockProvider as LockProviderName } from '../db/generated/enums';
import { AppError } from '../errors';
import { logger } from '../log/logger';
import { enqueueProgram, enqueueRemove, lockCondition, recordDeviceState } from './lock-events';
import type { DeviceOfflineReason, ProviderCode, ProviderDevice } from './provider';
import { lockProviderFor } from './tenant-provider';
import { writeAuditEvent } from '../audit/write-audit-event';

/** What a reconciliation found on one lock. */
export type DriftReport = {
  lockId: string;
  /** Codes on the lock that UnlockOS did not make (a master code, or someone else's): shown, never touched. */
  foreignCodes: number;
  /** Of those, the ones no manager acknowledged: only these are drift. */
  unacknowledgedForeignCodes: number;
  /** Live keys whose code the provider no longer has: sent again. */
  missingKeyIds: string[];
  /** Ended keys whose code is still on the lock: removed again. */
  lingeringKeyIds: string[];
  /** Doors that had failed for good and were sent again (a manager's re-sync only). */
  retriedKeyIds: string[];
  /**
   * Whether the provider could reach the lock itself just now. The codes compared are the provider's
   * records (TTLock's cloud, Seam's workspace): while the lock is offline they may not be what the
   * lock holds, so an unreached lock never "matches our records".
   */
  reached: boolean;
  /** Why it was not reached: the provider's reason, `missing` (no longer listed), `unknown` (not said). */
  offlineReason: LockUnreachable | null;
};

export type LockUnreachable = DeviceOfflineReason | 'missing' | 'unknown';

/** Whether a device as its provider listed it (or not at all) is reached now, and if not, why. */
function reachOf(device: ProviderDevice | null): { reached: boolean; offlineReason: LockUnreachable | null } {
  if (!device) return { reached: false, offlineReason: 'missing' };
  if (device.online === true) return { reached: true, offlineReason: null };
  if (device.online === null) return { reached: false, offlineReason: 'unknown' };
  return { reached: false, offlineReason: device.offlineReason ?? 'device_offline' };
}

/** A device the provider could not be asked about (its listing failed): reach unknown. */
const UNKNOWN_DEVICE: ProviderDevice = {
  deviceId: '',
  name: '',
  online: null,
  batteryLevel: null,
  canProgramOnline: false,
  canProgramOffline: false,
  supportsBackupCodes: false,
};

type OurDoor = { key_id: string; state: string; code_id: string | null; key_live: boolean };

/**
 * Compares what a lock holds by its provider's word with what we think it holds, and heals what
 * can be healed: a live key's code that vanished is programmed again, an ended key's code still on
 * the lock is removed again. Codes we did not make are counted and shown, never removed. The
 * lock's drift incident is open while anything differs, and resolved when nothing does.
 * `retryFailed` (the manager's "re-sync") also sends again the doors that had failed for good.
 */
export async function reconcileLock(input: {
  tenantId: string;
  lockId: string;
  retryFailed?: boolean;
  actor?: Actor;
  /** The device as the provider listed it a moment ago (the periodic check has it); else it is asked. */
  device?: ProviderDevice | null;
}): Promise<DriftReport> {
  const { tenantId, lockId } = input;
  const lock = await asService({ tenantId }, (tx) =>
    tx.lock.findFirst({
      where: { tenantId, id: lockId },
      select: { id: true, name: true, provider: true, deviceId: true, acknowledgedForeignCodes: true },
    }),
  );
  if (!lock) throw new AppError('not_found', 'Unknown lock.');
  const provider = await lockProviderFor(tenantId, lock.provider);
  const listed = provider.ok
    ? await provider.data.listCodes({ deviceId: lock.deviceId, correlationId: `reconcile:${lockId}` })
    : provider;
  if (!listed.ok) {
    logger.warn(
      { tenantId, lockId, provider: lock.provider, providerCode: listed.code },
      'lock reconciliation could not list codes',
    );
    await asService({ tenantId }, (tx) =>
      tx.lock.update({ where: { tenantId_id: { tenantId, id: lockId } }, data: { reconcileError: listed.code } }),
    );
    throw new AppError('unavailable', `The lock provider did not list the lock's codes (${listed.code}).`, {
      providerCode: listed.code,
    });
  }
  const theirs = listed.data;
  let device = input.device;
  if (device === undefined && provider.ok) {
    const devices = await provider.data.listDevices({ correlationId: `reconcile:${lockId}` });
    device = devices.ok ? (devices.data.find((d) => d.deviceId === lock.deviceId) ?? null) : { ...UNKNOWN_DEVICE };
  }
  const reach = reachOf(device ?? null);
  return asService({ tenantId }, async (tx) => {
    const [keys] = await runInTransaction(tx, [
      statement<{ key_id: string }>(`
      select key_id from key_lock_codes where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and lock_id = ${sqlLiteral(lockId, 'uuid')}`),
    ]);
    await runInTransaction(
      tx,
      lockKeysBeforeDoorsStatements(
        tenantId,
        keys.map((k) => k.key_id),
      ),
    );
    const [ours] = await runInTransaction(tx, [
      statement<OurDoor>(`
      select c.key_id, c.state::text, c.code_id, k.status in ('pre_issued', 'active') and not c.detached as key_live
        from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
       where c.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and c.lock_id = ${sqlLiteral(lockId, 'uuid')}
         and c.state in ('pending', 'setting', 'set', 'failed', 'removing', 'removed', 'remove_failed')
         and (k.status in ('pre_issued', 'active') or c.state <> 'removed' or c.removed_at > now() - interval '30 days')
       for update of c`),
    ]);
    const byKey = new Map(ours.map((door) => [door.key_id, door]));
    const onLock = new Map<string, ProviderCode>();
    for (const code of theirs) if (code.clientRef && code.state !== 'absent') onLock.set(code.clientRef, code);

    const foreignCodeIds = theirs.filter((code) => !code.clientRef || !byKey.has(code.clientRef)).map((c) => c.codeId);
    const acknowledged = new Set(lock.acknowledgedForeignCodes);
    const report: DriftReport = {
      lockId,
      foreignCodes: foreignCodeIds.length,
      unacknowledgedForeignCodes: foreignCodeIds.filter((id) => !acknowledged.has(id)).length,
      missingKeyIds: [],
      lingeringKeyIds: [],
      retriedKeyIds: [],
      ...reach,
    };
    for (const door of ours) {
      const code = onLock.get(door.key_id);
      if (door.key_live && door.state === 'set' && !code) {
        report.missingKeyIds.push(door.key_id);
        await runInTransaction(tx, [
          effectStatement(`update key_lock_codes set state = 'pending', code_id = null, error = 'missing_on_lock', updated_at = now()
          where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and key_id = ${sqlLiteral(door.key_id, 'uuid')}
            and lock_id = ${sqlLiteral(lockId, 'uuid')}`),
        ]);
        await enqueueProgram(tx, tenantId, door.key_id);
      } else if (door.key_live && door.state === 'failed' && input.retryFailed) {
        report.retriedKeyIds.push(door.key_id);
        await runInTransaction(tx, [
          effectStatement(`update key_lock_codes set state = 'pending', code_id = coalesce(${sqlLiteral(code?.codeId ?? null, 'text')}, code_id),
            error = null, attempts = 0, updated_at = now()
          where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and key_id = ${sqlLiteral(door.key_id, 'uuid')}
            and lock_id = ${sqlLiteral(lockId, 'uuid')}`),
        ]);
        await enqueueProgram(tx, tenantId, door.key_id);
      } else if (!door.key_live && (door.state === 'removed' || door.state === 'remove_failed') && code) {
        report.lingeringKeyIds.push(door.key_id);
        await runInTransaction(tx, [
          effectStatement(`update key_lock_codes set state = 'removing', code_id = ${sqlLiteral(code.codeId, 'text')}, error = 'still_on_lock',
            attempts = 0, updated_at = now()
          where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and key_id = ${sqlLiteral(door.key_id, 'uuid')}
            and lock_id = ${sqlLiteral(lockId, 'uuid')}`),
        ]);
        await enqueueRemove(tx, tenantId, door.key_id);
      }
    }

    const snapshot = theirs.map((code) => ({ codeId: code.codeId, clientRef: code.clientRef, state: code.state }));
    await tx.lock.update({
      where: { tenantId_id: { tenantId, id: lockId } },
      data: { providerCodes: snapshot, reconciledAt: new Date(), reconcileError: null },
    });
    const drift = report.unacknowledgedForeignCodes + report.missingKeyIds.length + report.lingeringKeyIds.length;
    if (drift > 0) {
      // The same drift found again is the same occurrence: counted (and mailed) only when it changes.
      const unacknowledged = foreignCodeIds.filter((id) => !acknowledged.has(id));
      const fingerprint = createHash('sha256')
        .update(
          JSON.stringify([unacknowledged, report.missingKeyIds, report.lingeringKeyIds].map((ids) => [...ids].sort())),
        )
        .digest('hex')
        .slice(0, 16);
      await openIncidentOnce(tx, {
        tenantId,
        conditionKey: lockCondition.drift(lockId),
        kind: 'lock_drift',
        severity: report.lingeringKeyIds.length > 0 ? 'critical' : 'warning',
        summary: driftSummary(lock.name, report),
        // The provider's ids of the codes we did not make: what a manager acknowledges (never a PIN).
        detail: { ...report, foreignCodeIds },
        occurrenceId: `drift:${fingerprint}`,
      });
    } else {
      await runInTransaction(tx, [resolveIncidentStatement({ tenantId, conditionKey: lockCondition.drift(lockId) })]);
    }
    if (input.actor) {
      await writeAuditEvent(tx, {
        tenantId,
        actor: input.actor,
        action: 'lock.resynced',
        subject: { type: 'lock', id: lockId },
        metadata: { ...report },
      });
    }
    return report;
  });
}

function driftSummary(name: string, report: DriftReport): string {
  const parts: string[] = [];
  if (report.unacknowledgedForeignCodes > 0)
    parts.push(`${report.unacknowledgedForeignCodes} code(s) UnlockOS did not make`);
  if (report.missingKeyIds.length > 0) parts.push(`${report.missingKeyIds.length} guest code(s) missing, sent again`);
  if (report.lingeringKeyIds.length > 0)
    parts.push(`${report.lingeringKeyIds.length} ended code(s) still on the lock, being removed`);
  return `Lock ${name} differs from our records: ${parts.join('; ')}.`;
}

/**
 * The periodic status read: every provider a tenant's locks use is asked for its devices, each lock's
 * online state and battery are recorded (opening or resolving its incidents), and every lock is
 * reconciled. A provider that does not answer is logged and tried again next time.
 */
export async function checkTenantLocks(tenantId: string): Promise<{ locks: number; failures: number }> {
  const locks = await asService({ tenantId }, (tx) =>
    tx.lock.findMany({
      where: { tenantId },
      select: { id: true, name: true, provider: true, deviceId: true, online: true },
    }),
  );
  let failures = 0;
  // Each lock's device as its provider just listed it (null: not listed); absent when not asked.
  const listed = new Map<string, ProviderDevice | null>();
  const providers = [...new Set(locks.map((l) => l.provider))] as LockProviderName[];
  for (const name of providers) {
    const provider = await lockProviderFor(tenantId, name);
    const devices = provider.ok
      ? await provider.data.listDevices({ correlationId: `lock-health:${tenantId}` })
      : provider;
    if (!devices.ok) {
      failures += 1;
      logger.warn({ tenantId, provider: name, providerCode: devices.code }, 'lock status read failed');
      continue;
    }
    const byDevice = new Map(devices.data.map((d) => [d.deviceId, d]));
    await asService({ tenantId }, async (tx) => {
      for (const lock of locks.filter((l) => l.provider === name)) {
        const device = byDevice.get(lock.deviceId) ?? null;
        listed.set(lock.id, device);
        if (!device) {
          await recordDeviceMissing(tx, tenantId, lock);
          continue;
        }
        await tx.lock.update({
          where: { tenantId_id: { tenantId, id: lock.id } },
          data: {
            online: device.online,
            offlineReason: device.online === false ? (device.offlineReason ?? 'device_offline') : null,
            batteryLevel: device.batteryLevel === null ? null : Math.round(device.batteryLevel),
            lastSeenAt: device.online ? new Date() : undefined,
            syncedAt: new Date(),
          },
        });
        await runInTransaction(tx, [
          resolveIncidentStatement({ tenantId, conditionKey: lockCondition.missing(lock.id) }),
        ]);
        await recordDeviceState(tx, tenantId, lock, { ...device, wasOnline: lock.online });
      }
    });
  }
  for (const lock of locks) {
    await reconcileLock({ tenantId, lockId: lock.id, device: listed.get(lock.id) }).catch(() => {
      failures += 1;
    });
  }
  return { locks: locks.length, failures };
}

/**
 * A lock whose device the provider no longer lists (removed from the account, re-paired under another
 * id, or another account's): nothing can be set on it or removed from it, and the codes on it are out
 * of our reach. One incident per lock, naming its live keys, resolved when the device is listed again.
 */
async function recordDeviceMissing(tx: Tx, tenantId: string, lock: { id: string; name: string }): Promise<void> {
  await tx.lock.update({
    where: { tenantId_id: { tenantId, id: lock.id } },
    data: { online: null, offlineReason: 'missing', syncedAt: new Date() },
  });
  const [keys] = await runInTransaction(tx, [
    statement<{ id: string }>(`
    select k.id from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
     where c.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and c.lock_id = ${sqlLiteral(lock.id, 'uuid')}
       and k.status in ('pre_issued', 'active')
     order by k.valid_from`),
  ]);
  await openIncidentOnce(tx, {
    tenantId,
    conditionKey: lockCondition.missing(lock.id),
    kind: 'lock_missing',
    severity: keys.length > 0 ? 'critical' : 'warning',
    summary: `Lock ${lock.name} is no longer in the provider's list of devices: codes cannot be set on it or removed from it.`,
    detail: { lockId: lock.id, keyIds: keys.map((k) => k.id) },
    // One occurrence per day it stays missing, not one per check.
    occurrenceId: new Date().toISOString().slice(0, 10),
  });
}

/**
 * Every tenant that has locks gets a job that checks them (`check_tenant_locks`, not queued twice): the worker's
 * `check_locks` cron. A job a tenant, not one loop over all: one tenant's slow provider delays only its own check.
 */
export async function enqueueLockChecks(): Promise<number> {
  const rows = await serviceStatement(
    statement<{ n: number }>(
      `select count(app_enqueue_job('check_tenant_locks', jsonb_build_object('tenantId', t.tenant_id),
                                    null, 'check-locks:' || t.tenant_id, null, 1))::int as n
         from (select distinct tenant_id from locks) t`,
    ),
    [],
  );
  return rows[0]?.n ?? 0;
}
