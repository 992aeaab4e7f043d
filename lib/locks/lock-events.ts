import { openIncident, resolveIncidentStatement } from '../incidents/incidents';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement, type Tx } from '../db/tx';
import type { LockProvider as LockProviderName } from '../db/generated/enums';
import { lockKeysBeforeDoorsStatements } from './lock-order';
import { retryDoorsOfLock } from './retry-failed-doors';
import { countOnLockFailure } from './sync-provider';
import type { DeviceOfflineReason, LockEvent } from './provider';

/** What handling a lock event came to; the webhook inbox records it (it matches lib/webhooks/types.ts's WebhookOutcome). */
export type LockEventOutcome = { status: 'processed' } | { status: 'ignored'; reason: string };

/** Below this battery percentage a lock has a low-battery incident. */
export const LOW_BATTERY_PERCENT = 20;

/** One open incident per condition per lock. */
export const lockCondition = {
  offline: (lockId: string) => `lock_offline:${lockId}`,
  missing: (lockId: string) => `lock_missing:${lockId}`,
  lowBattery: (lockId: string) => `lock_low_battery:${lockId}`,
  tampered: (lockId: string) => `lock_tampered:${lockId}`,
  drift: (lockId: string) => `lock_drift:${lockId}`,
};

type LockRow = { id: string; name: string; last_event_at: Date | null };

/** The live keys with a door on this lock: what an incident about the lock affects. */
async function liveKeysOn(tx: Tx, tenantId: string, lockId: string): Promise<string[]> {
  const [rows] = await runInTransaction(tx, [
    statement<{ id: string }>(`
    select k.id from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
     where c.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and c.lock_id = ${sqlLiteral(lockId, 'uuid')}
       and k.status in ('pre_issued', 'active')
     order by k.valid_from`),
  ]);
  return rows.map((r) => r.id);
}

/**
 * The live keys on this lock that need it soon: a door whose code is not on it yet, or a window that
 * is open or opens within a day. An offline lock with any of these is critical: guests are waiting.
 */
async function keysDueOn(tx: Tx, tenantId: string, lockId: string): Promise<string[]> {
  const [rows] = await runInTransaction(tx, [
    statement<{ id: string }>(`
    select k.id from key_lock_codes c join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
     where c.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and c.lock_id = ${sqlLiteral(lockId, 'uuid')}
       and k.status in ('pre_issued', 'active')
       and (c.state <> 'set' or k.valid_from <= now() + interval '24 hours')
     order by k.valid_from`),
  ]);
  return rows.map((r) => r.id);
}

const OFFLINE_WORDS: Record<DeviceOfflineReason, string> = {
  device_offline: 'the lock itself does not answer',
  gateway_offline: 'its gateway is offline',
  no_gateway: 'it has no gateway',
};

export async function enqueueProgram(tx: Tx, tenantId: string, keyId: string): Promise<void> {
  await runInTransaction(tx, [
    effectStatement(`select app_enqueue_job('vendor_program_key', ${sqlLiteral(JSON.stringify({ tenantId, keyId }), 'jsonb')},
    queue_name => ${sqlLiteral(`key:${keyId}`, 'text')}, max_attempts => 8)`),
  ]);
}

export async function enqueueRemove(tx: Tx, tenantId: string, keyId: string): Promise<void> {
  await runInTransaction(tx, [
    effectStatement(`select app_enqueue_job('vendor_remove_key', ${sqlLiteral(JSON.stringify({ tenantId, keyId }), 'jsonb')},
    queue_name => ${sqlLiteral(`key:${keyId}`, 'text')}, max_attempts => 8)`),
  ]);
}

/**
 * Opens or resolves a lock's device conditions from what the provider says of it now; a lock back
 * online (it was not, or not known to be) gets its failed doors and refused re-windows sent again at once.
 */
export async function recordDeviceState(
  tx: Tx,
  tenantId: string,
  lock: { id: string; name: string },
  state: {
    online: boolean | null;
    batteryLevel: number | null;
    offlineReason?: DeviceOfflineReason | null;
    /** What we knew before this reading: a lock online already has nothing to send again because of it. */
    wasOnline?: boolean | null;
  },
): Promise<void> {
  if (state.online === false) {
    const reason = state.offlineReason ?? 'device_offline';
    const due = await keysDueOn(tx, tenantId, lock.id);
    await openIncident(tx, {
      tenantId,
      conditionKey: lockCondition.offline(lock.id),
      kind: 'lock_offline',
      severity: due.length > 0 ? 'critical' : 'warning',
      summary:
        `Lock ${lock.name} is offline (${OFFLINE_WORDS[reason]}): codes cannot be set on it or removed from it until it is back` +
        (due.length > 0 ? `; ${due.length} guest or staff code(s) are due on it.` : '.'),
      detail: { lockId: lock.id, reason, keyIds: await liveKeysOn(tx, tenantId, lock.id), dueKeyIds: due },
    });
  } else if (state.online === true) {
    await runInTransaction(tx, [resolveIncidentStatement({ tenantId, conditionKey: lockCondition.offline(lock.id) })]);
    // Back online: the doors that failed on it, and the re-windows it refused, go again now.
    if (state.wasOnline !== true) await retryDoorsOfLock(tx, tenantId, lock.id);
  }
  if (state.batteryLevel !== null && state.batteryLevel < LOW_BATTERY_PERCENT) {
    await openIncident(tx, {
      tenantId,
      conditionKey: lockCondition.lowBattery(lock.id),
      kind: 'lock_low_battery',
      severity: 'warning',
      summary: `Lock ${lock.name} has ${state.batteryLevel} % battery left.`,
      detail: { lockId: lock.id, batteryLevel: state.batteryLevel, keyIds: await liveKeysOn(tx, tenantId, lock.id) },
    });
  } else if (state.batteryLevel !== null) {
    await runInTransaction(tx, [
      resolveIncidentStatement({ tenantId, conditionKey: lockCondition.lowBattery(lock.id) }),
    ]);
  }
}

/**
 * Applies a provider's event about a code or a device to the tenant's locks and doors. Door states
 * only move forward along their own rules (a confirmation of a code we are removing does not make
 * it live again); a device's last-known state is not overwritten by an older event.
 */
export async function applyLockEvent(input: {
  tenantId: string;
  provider: LockProviderName;
  event: LockEvent;
}): Promise<LockEventOutcome> {
  const { tenantId, provider, event } = input;
  return asService({ tenantId }, async (tx) => {
    const [locks] = await runInTransaction(tx, [
      statement<LockRow>(`
      select id, name, last_event_at from locks
       where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and provider = ${sqlLiteral(provider, 'lock_provider')}
         and device_id = ${sqlLiteral(event.deviceId, 'text')}
       for update`),
    ]);
    const lock = locks[0];
    if (!lock) return { status: 'ignored', reason: 'unknown_device' };
    const newer = !lock.last_event_at || lock.last_event_at <= event.occurredAt;
    if (newer) {
      const kind = sqlLiteral(event.kind, 'text');
      const occurredAt = sqlLiteral(event.occurredAt, 'timestamptz');
      await runInTransaction(tx, [
        effectStatement(`update locks set last_event = ${kind}, last_event_at = ${occurredAt},
          last_seen_at = case when ${kind} <> 'device_disconnected' then greatest(last_seen_at, ${occurredAt}) else last_seen_at end,
          updated_at = now()
        where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(lock.id, 'uuid')}`),
      ]);
    }
    switch (event.kind) {
      case 'code_set':
      case 'code_removed':
      case 'code_failed':
      case 'code_delayed':
        return applyCodeEvent(tx, tenantId, lock, event);
      case 'device_connected':
      case 'device_disconnected':
        if (!newer) return { status: 'ignored', reason: 'older_than_last_event' };
        await tx.lock.update({
          where: { tenantId_id: { tenantId, id: lock.id } },
          data: {
            online: event.kind === 'device_connected',
            offlineReason: event.kind === 'device_connected' ? null : 'device_offline',
          },
        });
        await recordDeviceState(tx, tenantId, lock, {
          online: event.kind === 'device_connected',
          batteryLevel: null,
          offlineReason: 'device_offline',
        });
        return { status: 'processed' };
      case 'low_battery':
        if (event.batteryLevel !== null && newer)
          await tx.lock.update({
            where: { tenantId_id: { tenantId, id: lock.id } },
            data: { batteryLevel: Math.round(event.batteryLevel) },
          });
        await recordDeviceState(tx, tenantId, lock, {
          online: null,
          batteryLevel: event.batteryLevel ?? 0,
        });
        return { status: 'processed' };
      case 'tampered':
        await openIncident(tx, {
          tenantId,
          conditionKey: lockCondition.tampered(lock.id),
          kind: 'lock_tampered',
          severity: 'critical',
          summary: `Lock ${lock.name} reported tampering at ${event.occurredAt.toISOString()}.`,
          detail: { lockId: lock.id, keyIds: await liveKeysOn(tx, tenantId, lock.id) },
        });
        return { status: 'processed' };
    }
  });
}

async function applyCodeEvent(
  tx: Tx,
  tenantId: string,
  lock: LockRow,
  event: Extract<LockEvent, { codeId: string }>,
): Promise<LockEventOutcome> {
  const [keys] = await runInTransaction(tx, [
    statement<{ key_id: string }>(`
    select key_id from key_lock_codes
     where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and lock_id = ${sqlLiteral(lock.id, 'uuid')}
       and code_id = ${sqlLiteral(event.codeId, 'text')}`),
  ]);
  await runInTransaction(
    tx,
    lockKeysBeforeDoorsStatements(
      tenantId,
      keys.map((k) => k.key_id),
    ),
  );
  const [doors] = await runInTransaction(tx, [
    statement<{ key_id: string; state: string }>(`
    select key_id, state::text from key_lock_codes
     where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and lock_id = ${sqlLiteral(lock.id, 'uuid')}
       and code_id = ${sqlLiteral(event.codeId, 'text')}
     for update`),
  ]);
  const door = doors[0];
  if (!door) return { status: 'ignored', reason: 'unknown_code' };
  const where = { tenantId, keyId: door.key_id, lockId: lock.id };
  switch (event.kind) {
    case 'code_set':
      if (door.state !== 'pending' && door.state !== 'setting')
        return { status: 'ignored', reason: `door_${door.state}` };
      await tx.keyLockCode.update({
        where: { tenantId_keyId_lockId: where },
        data: { state: 'set', setAt: event.occurredAt, error: null, updatedAt: new Date() },
      });
      return { status: 'processed' };
    case 'code_removed':
      if (door.state === 'removing' || door.state === 'remove_failed') {
        await tx.keyLockCode.update({
          where: { tenantId_keyId_lockId: where },
          data: { state: 'removed', removedAt: event.occurredAt, error: null, updatedAt: new Date() },
        });
        return { status: 'processed' };
      }
      if (door.state === 'set' || door.state === 'setting') {
        // The lock lost a code we still need (someone removed it at the lock): put it back.
        await tx.keyLockCode.update({
          where: { tenantId_keyId_lockId: where },
          data: { state: 'pending', codeId: null, error: 'removed_outside_unlockos', updatedAt: new Date() },
        });
        await enqueueProgram(tx, tenantId, door.key_id);
        return { status: 'processed' };
      }
      return { status: 'ignored', reason: `door_${door.state}` };
    case 'code_failed':
      if (door.state !== 'pending' && door.state !== 'setting' && door.state !== 'set')
        return { status: 'ignored', reason: `door_${door.state}` };
      await tx.keyLockCode.update({
        where: { tenantId_keyId_lockId: where },
        data: { state: 'failed', error: event.error ?? 'failed_to_set_on_device', updatedAt: new Date() },
      });
      await countOnLockFailure(tx, {
        tenantId,
        keyId: door.key_id,
        kind: 'program',
        lock,
        code: event.error ?? 'failed_to_set_on_device',
      });
      return { status: 'processed' };
    case 'code_delayed':
      await tx.keyLockCode.update({
        where: { tenantId_keyId_lockId: where },
        data: { error: event.error ?? 'delay_in_setting_on_device', updatedAt: new Date() },
      });
      return { status: 'processed' };
  }
}
