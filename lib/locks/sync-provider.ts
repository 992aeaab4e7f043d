import { randomUUID } from 'node:crypto';
import { addKeyToIncident, clearKeyFromIncidentsStatement } from '../incidents/incidents';
import {
  asService,
  effectStatement,
  runInTransaction,
  runStatements,
  sqlArray,
  sqlLiteral,
  statement,
  type Statement,
  type Tx,
} from '../db/tx';
import type {
  DoorCodeState,
  KeyKind,
  KeyStatus,
  LockProvider as LockProviderName,
  StaffCodePurpose,
} from '../db/generated/enums';
import { lockKeysBeforeDoorsStatements } from './lock-order';
import { logger } from '../log/logger';
import type { CodeState, LockProvider, LockResult, ProviderCode } from './provider';
import { lockProviderFor } from './tenant-provider';

export type JobAttempt = { tenantId: string; keyId: string; attempt: number; maxAttempts: number };

/** Thrown to let the job queue try again with its backoff: a retryable failure, or a code the provider has not confirmed yet. */
export class RetryableProviderError extends Error {
  constructor(readonly code: string) {
    super(`lock provider: ${code}; will retry`);
  }
}

export const NO_LOCK_DEVICE = 'no_lock_device';
/** The provider took the code but never confirmed it on the lock within the job's attempts. */
export const NOT_CONFIRMED = 'not_confirmed';

type Kind = 'program' | 'remove' | 'rewindow';

/** The incidents a key can count against: one per lock and kind (and per room without a lock). */
export const conditionKey = {
  failed: (kind: Kind, lockId: string) => `lock_${kind}_failed:${lockId}`,
  noLock: (roomId: string) => `room_without_lock:${roomId}`,
};

type Door = {
  lockId: string;
  provider: LockProviderName;
  deviceId: string;
  lockName: string;
  /** No bridge: codes cannot be set remotely, only issued as offline (algorithmic) codes. */
  offlineOnly: boolean;
  state: DoorCodeState;
  codeId: string | null;
  offline: boolean;
  attempts: number;
  /** The code on the lock carries an old window (the stay's dates changed): redo it. */
  rewindow: boolean;
  /** The last re-window that did not reach the lock, if any (the code keeps its old window). */
  rewindowError: string | null;
};

/** A key as the worker programs it: what the job needs of the key, its room's label and its doors. */
type KeyRow = {
  id: string;
  status: KeyStatus;
  pin: string;
  validFrom: Date;
  expiresAt: Date;
  reservationId: string | null;
  checkInId: string | null;
  roomId: string;
  kind: KeyKind;
  staffLabel: string | null;
  staffPurpose: StaffCodePurpose | null;
  staffUserId: string | null;
  issuedById: string | null;
  issuedByLabel: string | null;
  roomLabel: string;
  doors: (Omit<Door, 'offlineOnly'> & { canProgramOnline: boolean; canProgramOffline: boolean })[];
};

/** The key, its room's label and its doors (each with its lock), in one statement and one round trip. */
async function loadKey(tenantId: string, keyId: string) {
  const [rows] = await runStatements({ role: 'app_service', tenantId }, [
    statement<KeyRow>(`select k.id, k.status, k.pin, k.valid_from as "validFrom", k.expires_at as "expiresAt",
        k.reservation_id as "reservationId", k.check_in_id as "checkInId", k.room_id as "roomId", k.kind,
        k.staff_label as "staffLabel", k.staff_purpose as "staffPurpose", k.staff_user_id as "staffUserId",
        k.issued_by_id as "issuedById", k.issued_by_label as "issuedByLabel", rm.label as "roomLabel",
        coalesce((select json_agg(json_build_object('lockId', d.lock_id, 'provider', l.provider, 'deviceId', l.device_id,
                    'lockName', l.name, 'canProgramOnline', l.can_program_online, 'canProgramOffline', l.can_program_offline,
                    'state', d.state, 'codeId', d.code_id, 'offline', d.offline, 'attempts', d.attempts,
                    'rewindow', d.rewindow, 'rewindowError', d.rewindow_error))
                    from key_lock_codes d join locks l on l.tenant_id = d.tenant_id and l.id = d.lock_id
                   where d.tenant_id = k.tenant_id and d.key_id = k.id), '[]') as doors
       from access_keys k join rooms rm on rm.tenant_id = k.tenant_id and rm.id = k.room_id
      where k.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and k.id = ${sqlLiteral(keyId, 'uuid')}`),
  ]);
  const key = rows![0];
  if (!key) return null;
  const doors: Door[] = key.doors
    .map(({ canProgramOnline, canProgramOffline, ...door }) => ({
      ...door,
      offlineOnly: !canProgramOnline && canProgramOffline,
    }))
    .sort((a, b) => a.lockId.localeCompare(b.lockId));
  return { ...key, room: { label: key.roomLabel }, doors };
}

type LoadedKey = NonNullable<Awaited<ReturnType<typeof loadKey>>>;

/** What one door's step came to: done (for now), or wait for the queue's next attempt. */
type Step = { kind: 'done' } | { kind: 'retry'; code: string } | { kind: 'final'; code: string };

/** Our own code on a device, found by the key id its name carries (a lost answer may have set it). */
async function findOwnCode(
  provider: LockProvider,
  door: Door,
  keyId: string,
  correlationId: string,
): Promise<LockResult<ProviderCode | null>> {
  const listed = await provider.listCodes({ deviceId: door.deviceId, correlationId });
  if (!listed.ok) return listed;
  const ours = listed.data.filter((code) => code.clientRef === keyId);
  // Two codes claiming one key is not something to act on.
  if (ours.length > 1) return { ok: false, code: 'ambiguous_codes', retryable: false };
  return { ok: true, data: ours[0] ?? null };
}

/** Door state for a provider's word about a code we want on the lock. */
function settingState(state: CodeState): DoorCodeState {
  if (state === 'set') return 'set';
  if (state === 'failed') return 'failed';
  if (state === 'absent') return 'pending';
  return 'setting';
}

type DoorChange = { from: DoorCodeState[]; to?: DoorCodeState; codeId?: string | null; error?: string | null };

/**
 * A door's move `from` some states (`to` one, with an error or not) and the key's last error, after the
 * locks every door writer takes first (`lockKeysBeforeDoorsStatements`): run in a transaction or sent
 * whole in one round trip. The code id is kept whatever the door's state has become meanwhile: a key
 * that ended while its code was being set must still know which code to remove.
 */
function doorChangeStatements(tenantId: string, keyId: string, lockId: string, change: DoorChange): Statement<void>[] {
  const moves = `state::text = any(${sqlArray(change.from, 'text')})`;
  const to = sqlLiteral(change.to ?? null, 'door_code_state');
  return [
    ...lockKeysBeforeDoorsStatements(tenantId, [keyId]),
    effectStatement(`update key_lock_codes set
      code_id = coalesce(${sqlLiteral(change.codeId ?? null, 'text')}, code_id),
      state = case when ${moves} then coalesce(${to}, state) else state end,
      error = case when ${moves} then ${sqlLiteral(change.error ?? null, 'text')} else error end,
      set_at = case when ${moves} and ${to} = 'set' then now() else set_at end,
      removed_at = case when ${moves} and ${to} = 'removed' then now() else removed_at end,
      attempts = attempts + 1, updated_at = now()
    where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and key_id = ${sqlLiteral(keyId, 'uuid')}
      and lock_id = ${sqlLiteral(lockId, 'uuid')}`),
    effectStatement(`update access_keys set vendor_error = ${sqlLiteral(change.error ?? null, 'text')}
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(keyId, 'uuid')}`),
  ];
}

/** Puts the key's code on one door, or checks on a code the provider has not confirmed yet. */
async function programDoor(job: JobAttempt, key: LoadedKey, door: Door, provider: LockProvider): Promise<Step> {
  if (door.offlineOnly) return issueOfflineCode(job, key, door, provider);
  const correlationId = `${key.id}:program:${door.lockId.slice(0, 8)}:${job.attempt}`;
  let result: LockResult<{ codeId: string; state: CodeState } | null>;
  if (door.codeId) {
    const read = await provider.getCode({ deviceId: door.deviceId, codeId: door.codeId, correlationId });
    result = read.ok ? { ok: true, data: read.data && { codeId: read.data.codeId, state: read.data.state } } : read;
    if (read.ok && read.data?.state === 'failed' && door.attempts === 0) {
      // A fresh round for a door that had failed (sent again by itself, or by Re-sync): the code the
      // lock refused goes first, then the PIN is sent anew (the same code would only fail again).
      const removed = await provider.removeCode({ deviceId: door.deviceId, codeId: door.codeId, correlationId });
      if (!removed.ok) {
        await record(job, key, door, { from: ['pending', 'setting'], error: removed.code });
        return removed.retryable ? { kind: 'retry', code: removed.code } : failDoor(job, key, door, removed.code);
      }
      await asService({ tenantId: job.tenantId }, async (tx) => {
        await runInTransaction(tx, lockKeysBeforeDoorsStatements(job.tenantId, [key.id]));
        await runInTransaction(tx, [
          effectStatement(`update key_lock_codes set code_id = null, updated_at = now()
          where tenant_id = ${sqlLiteral(job.tenantId, 'uuid')} and key_id = ${sqlLiteral(key.id, 'uuid')}
            and lock_id = ${sqlLiteral(door.lockId, 'uuid')}
            and state in ('pending', 'setting')`),
        ]);
      });
      return programDoor(job, key, { ...door, codeId: null }, provider);
    }
    if (read.ok && read.data?.state === 'failed') {
      await record(job, key, door, { from: ['pending', 'setting'], to: 'failed', error: read.data.error ?? 'failed' });
      return { kind: 'final', code: read.data.error ?? 'failed' };
    }
    // Gone from the provider before it was ever confirmed: program it again.
    if (read.ok && !read.data) {
      await asService({ tenantId: job.tenantId }, async (tx) => {
        await runInTransaction(tx, lockKeysBeforeDoorsStatements(job.tenantId, [key.id]));
        await runInTransaction(tx, [
          effectStatement(`update key_lock_codes set code_id = null, state = 'pending', updated_at = now()
          where tenant_id = ${sqlLiteral(job.tenantId, 'uuid')} and key_id = ${sqlLiteral(key.id, 'uuid')}
            and lock_id = ${sqlLiteral(door.lockId, 'uuid')} and state in ('pending', 'setting')`),
        ]);
      });
      return { kind: 'retry', code: 'code_vanished' };
    }
  } else {
    const found = door.attempts > 0 ? await findOwnCode(provider, door, key.id, correlationId) : null;
    if (found && !found.ok) result = found;
    else if (found?.data) result = { ok: true, data: { codeId: found.data.codeId, state: found.data.state } };
    else
      result = await provider.programCode({
        deviceId: door.deviceId,
        pin: key.pin,
        validFrom: key.validFrom,
        expiresAt: key.expiresAt,
        clientRef: key.id,
        correlationId,
      });
  }
  if (!result.ok) {
    await record(job, key, door, { from: ['pending', 'setting'], error: result.code });
    return result.retryable ? { kind: 'retry', code: result.code } : failDoor(job, key, door, result.code);
  }
  const data = result.data!;
  const to = settingState(data.state);
  await record(job, key, door, { from: ['pending', 'setting'], to, codeId: data.codeId });
  if (to === 'set') return { kind: 'done' };
  if (to === 'failed') return failDoor(job, key, door, 'failed_to_set_on_device');
  return { kind: 'retry', code: 'awaiting_confirmation' };
}

/**
 * A lock without a bridge cannot be sent our PIN: its provider computes an offline code for the
 * window instead, which the lock accepts from its start to its end and which nothing can remove
 * before then. A key's PIN never changes, so the key is replaced, in one transaction, by one
 * carrying the offline code (same stay, state and window; the old one revoked
 * `replaced_by_offline_code` with its never-used door dropped). Revoking the new key later leaves
 * its door `valid_until_end`: revoked here, still valid on the lock until its end.
 */
async function issueOfflineCode(job: JobAttempt, key: LoadedKey, door: Door, provider: LockProvider): Promise<Step> {
  if (key.doors.length !== 1) return failDoor(job, key, door, 'offline_lock_needs_single_door');
  if (!provider.offlineCode) return failDoor(job, key, door, 'offline_codes_unsupported');
  const replacementId = randomUUID();
  const issued = await provider.offlineCode({
    deviceId: door.deviceId,
    validFrom: key.validFrom,
    expiresAt: key.expiresAt,
    clientRef: replacementId,
    correlationId: `${key.id}:offline:${job.attempt}`,
  });
  if (!issued.ok) {
    await record(job, key, door, { from: ['pending', 'setting'], error: issued.code });
    return issued.retryable ? { kind: 'retry', code: issued.code } : failDoor(job, key, door, issued.code);
  }
  const replaced = await asService({ tenantId: job.tenantId }, async (tx) => {
    const [live] = await runInTransaction(tx, [
      statement<{ id: string }>(`select id from access_keys
      where tenant_id = ${sqlLiteral(job.tenantId, 'uuid')} and id = ${sqlLiteral(key.id, 'uuid')}
        and status in ('pre_issued', 'active') for update`),
    ]);
    if (live.length === 0) return false; // ended meanwhile: the computed code was never given to anyone
    // The old key's door never held a code: it goes, then the key ends (one live key per stay), then
    // its successor arrives with the offline code already on its door.
    await runInTransaction(tx, [
      effectStatement(
        `delete from key_lock_codes where tenant_id = ${sqlLiteral(job.tenantId, 'uuid')}
          and key_id = ${sqlLiteral(key.id, 'uuid')}`,
      ),
    ]);
    await runInTransaction(tx, [
      effectStatement(`select id from app_end_key(${sqlLiteral(job.tenantId, 'uuid')},
        ${sqlLiteral(key.id, 'uuid')}, 'revoked', 'replaced_by_offline_code',
      'system', null, 'offline codes')`),
    ]);
    // Same kind as the key it replaces (a staff code stays a staff code, with its label and holder).
    await runInTransaction(tx, [
      effectStatement(`insert into access_keys (tenant_id, id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at,
        kind, staff_label, staff_purpose, staff_user_id, issued_by_id, issued_by_label)
      values (${sqlLiteral(job.tenantId, 'uuid')}, ${sqlLiteral(replacementId, 'uuid')},
        ${sqlLiteral(key.reservationId, 'uuid')}, ${sqlLiteral(key.checkInId, 'uuid')},
        ${sqlLiteral(key.roomId, 'uuid')},
        ${sqlLiteral(key.status, 'key_status')}, ${sqlLiteral(issued.data.pin, 'text')},
        ${sqlLiteral(key.validFrom, 'timestamptz')}, ${sqlLiteral(key.expiresAt, 'timestamptz')},
        ${sqlLiteral(key.kind, 'key_kind')},
        ${sqlLiteral(key.staffLabel, 'text')}, ${sqlLiteral(key.staffPurpose, 'staff_code_purpose')},
        ${sqlLiteral(key.staffUserId, 'uuid')}, ${sqlLiteral(key.issuedById, 'text')},
        ${sqlLiteral(key.issuedByLabel, 'text')})`),
    ]);
    await runInTransaction(tx, [
      effectStatement(`update key_lock_codes set state = 'set', offline = true, code_id = ${sqlLiteral(issued.data.codeId, 'text')},
        set_at = now()
      where tenant_id = ${sqlLiteral(job.tenantId, 'uuid')} and key_id = ${sqlLiteral(replacementId, 'uuid')}`),
    ]);
    const metadata = {
      reservationId: key.reservationId,
      checkInId: key.checkInId,
      replaces: key.id,
      lockId: door.lockId,
      offline: true,
    };
    await runInTransaction(tx, [
      effectStatement(`select app_audit(${sqlLiteral(job.tenantId, 'uuid')}, 'system', null, 'offline codes', 'key.issued',
      'access_key', ${sqlLiteral(replacementId, 'uuid')}, ${sqlLiteral(key.roomId, 'uuid')}, 'offline_code',
      ${sqlLiteral(JSON.stringify(metadata), 'jsonb')})`),
    ]);
    return true;
  });
  if (!replaced) logger.info({ keyId: key.id }, 'key ended while its offline code was computed; code not used');
  return { kind: 'done' };
}

/** Takes the key's code off one door, or checks on a removal the provider has not confirmed yet. */
async function removeDoor(job: JobAttempt, key: LoadedKey, door: Door, provider: LockProvider): Promise<Step> {
  const correlationId = `${key.id}:remove:${door.lockId.slice(0, 8)}:${job.attempt}`;
  let codeId = door.codeId;
  if (!codeId) {
    // Never confirmed as set: make sure no lost call left it on the lock.
    const found = await findOwnCode(provider, door, key.id, correlationId);
    if (!found.ok) return settleRemoval(job, key, door, found);
    if (!found.data) return settleRemoval(job, key, door, { ok: true, data: { state: 'absent' } });
    codeId = found.data.codeId;
  } else if (door.attempts > 0) {
    // Asked before: the provider may have removed it since (Seam confirms later).
    const read = await provider.getCode({ deviceId: door.deviceId, codeId, correlationId });
    if (read.ok && (!read.data || read.data.state === 'absent'))
      return settleRemoval(job, key, door, { ok: true, data: { state: 'absent' } }, codeId);
  }
  const result = await provider.removeCode({ deviceId: door.deviceId, codeId, correlationId });
  return settleRemoval(job, key, door, result, codeId);
}

async function settleRemoval(
  job: JobAttempt,
  key: LoadedKey,
  door: Door,
  result: LockResult<{ state: CodeState }>,
  codeId?: string,
): Promise<Step> {
  if (!result.ok) {
    await record(job, key, door, { from: ['removing'], codeId, error: result.code });
    return result.retryable ? { kind: 'retry', code: result.code } : failDoor(job, key, door, result.code);
  }
  if (result.data.state === 'absent') {
    await record(job, key, door, { from: ['removing'], to: 'removed', codeId });
    return { kind: 'done' };
  }
  await record(job, key, door, { from: ['removing'], codeId });
  return { kind: 'retry', code: 'awaiting_removal' };
}

/** Writes a door's new state; a door that reached its goal comes off its lock's failure incident. */
async function record(job: JobAttempt, key: LoadedKey, door: Door, change: DoorChange): Promise<void> {
  const { tenantId } = job;
  const cleared =
    change.to === 'set' || change.to === 'removed'
      ? [
          conditionKey.failed('program', door.lockId),
          conditionKey.noLock(key.roomId),
          ...(change.to === 'removed' ? [conditionKey.failed('remove', door.lockId)] : []),
        ]
      : [];
  // One transaction in one round trip: the locks every door writer takes first, the door, the key's
  // last error, and the door's lock incidents it no longer counts on.
  await runStatements({ role: 'app_service', tenantId }, [
    ...doorChangeStatements(tenantId, key.id, door.lockId, change),
    ...(cleared.length > 0
      ? [clearKeyFromIncidentsStatement({ tenantId, conditionKeys: cleared, keyId: key.id })]
      : []),
  ]);
}

/**
 * Counts a key on the one open incident of its lock and kind of failure (a code that could not be
 * set, or not removed), whoever found out: this job, or a provider's event.
 */
export async function countOnLockFailure(
  tx: Tx,
  input: {
    tenantId: string;
    keyId: string;
    kind: Kind;
    lock: { id: string; name: string; deviceId?: string };
    code: string;
  },
): Promise<void> {
  const { kind, lock, code } = input;
  await addKeyToIncident(tx, {
    tenantId: input.tenantId,
    keyId: input.keyId,
    conditionKey: conditionKey.failed(kind, lock.id),
    kind: `lock_${kind}_failed`,
    severity: kind === 'program' ? 'warning' : 'critical',
    summary: {
      remove: `Revoked codes could not be removed from lock ${lock.name} (${code}); the lock may still accept them.`,
      program: `Codes could not be set on lock ${lock.name} (${code}); those guests' PINs will not open that door.`,
      rewindow: `New stay dates could not be set on lock ${lock.name} (${code}); those codes keep their old window there.`,
    }[kind],
    detail: { lockId: lock.id, deviceId: lock.deviceId, lastCode: code },
  });
}

/** A door that failed for good: its state says so and the key counts on the one incident of its lock and kind. */
async function failDoor(job: JobAttempt, key: LoadedKey, door: Door, code: string): Promise<Step> {
  const removing = door.state === 'removing';
  const kind: Kind = removing ? 'remove' : 'program';
  logger.warn(
    { keyId: key.id, lockId: door.lockId, providerCode: code, kind, attempt: job.attempt },
    'lock command failed for good',
  );
  await asService({ tenantId: job.tenantId }, async (tx) => {
    await runInTransaction(
      tx,
      doorChangeStatements(job.tenantId, key.id, door.lockId, {
        from: removing ? ['removing'] : ['pending', 'setting'],
        to: removing ? 'remove_failed' : 'failed',
        error: code,
      }),
    );
    await countOnLockFailure(tx, {
      tenantId: job.tenantId,
      keyId: key.id,
      kind,
      lock: { id: door.lockId, name: door.lockName, deviceId: door.deviceId },
      code,
    });
  });
  return { kind: 'final', code };
}

/**
 * Runs one step on every door that still needs one, each door through its own lock's provider. A
 * door waiting (retryable failure, or a code not yet confirmed) makes the job try again with the
 * queue's backoff; on the last attempt a door still waiting fails for good.
 */
async function runDoors(
  job: JobAttempt,
  key: LoadedKey,
  states: DoorCodeState[],
  step: (job: JobAttempt, key: LoadedKey, door: Door, provider: LockProvider) => Promise<Step>,
): Promise<void> {
  const waiting: string[] = [];
  for (const door of key.doors.filter((d) => states.includes(d.state))) {
    const provider = await lockProviderFor(job.tenantId, door.provider);
    const outcome = provider.ok
      ? await step(job, key, door, provider.data)
      : await failDoor(job, key, door, provider.code);
    if (outcome.kind === 'retry') waiting.push(outcome.code);
  }
  if (waiting.length === 0) return;
  if (job.attempt >= job.maxAttempts) {
    const fresh = await loadKey(job.tenantId, job.keyId);
    for (const door of fresh?.doors ?? []) {
      if (states.includes(door.state))
        await failDoor(job, fresh!, door, door.state === 'setting' ? NOT_CONFIRMED : waiting[0]!);
    }
    return;
  }
  throw new RetryableProviderError(waiting.join(','));
}

/**
 * Programs a key's PIN on every door of its room (the outbox job `vendor_program_key`). A door's
 * code counts as set only when its provider says so; the key is synced only when every door is
 * (a trigger keeps access_keys.vendor_sync to that rule). A room without a lock gets no "synced":
 * the key is `failed` (`no_lock_device`) on the room's incident, and the guest is not promised a PIN.
 */
export async function programKeyOnLock(job: JobAttempt): Promise<void> {
  const key = await loadKey(job.tenantId, job.keyId);
  if (!key) return;
  const live = key.status === 'pre_issued' || key.status === 'active';
  if (!live) return; // ended before it reached the lock; its removal job runs next in the same queue
  if (key.doors.length === 0) return failWithoutLock(job, key);
  await runDoors(job, key, ['pending', 'setting'], programDoor);
}

async function failWithoutLock(job: JobAttempt, key: LoadedKey): Promise<void> {
  logger.warn({ keyId: key.id }, 'room has no lock; the key cannot be programmed');
  await asService({ tenantId: job.tenantId }, async (tx) => {
    await tx.accessKey.update({
      where: { tenantId_id: { tenantId: job.tenantId, id: key.id } },
      data: { vendorSync: 'failed', vendorError: NO_LOCK_DEVICE },
    });
    await addKeyToIncident(tx, {
      tenantId: job.tenantId,
      keyId: key.id,
      conditionKey: conditionKey.noLock(key.roomId),
      kind: 'room_without_lock',
      severity: 'warning',
      summary: `Room ${key.room.label} has no lock: its keys cannot be programmed.`,
      detail: { roomId: key.roomId },
    });
  });
}

/**
 * Removes an ended key's code from every door (the outbox job `vendor_remove_key`). A door is
 * `removed` only when its provider confirmed the code gone — or no lock ever had it; an offline
 * code stays `valid_until_end` and is not asked for.
 */
export async function removeKeyFromLock(job: JobAttempt): Promise<void> {
  const key = await loadKey(job.tenantId, job.keyId);
  if (!key) return;
  // A live key's only doors being removed are those taken off its room (detached, lib/locks/remove-room-door.ts).
  if (key.status === 'pre_issued' || key.status === 'active') return runDoors(job, key, ['removing'], removeDoor);
  if (key.doors.length === 0) {
    // Never sent to any lock (the room has none): nothing opens a door with it.
    await asService({ tenantId: job.tenantId }, async (tx) => {
      await tx.accessKey.update({
        where: { tenantId_id: { tenantId: job.tenantId, id: key.id } },
        data: { vendorSync: 'synced', vendorError: null },
      });
      await runInTransaction(tx, [
        clearKeyFromIncidentsStatement({
          tenantId: job.tenantId,
          conditionKeys: [conditionKey.noLock(key.roomId)],
          keyId: key.id,
        }),
      ]);
    });
    return;
  }
  await runDoors(job, key, ['removing'], removeDoor);
}

/** A door that no longer needs its window redone (done, or nothing to redo). */
async function clearRewindow(job: JobAttempt, lockIds: string[]): Promise<void> {
  await asService({ tenantId: job.tenantId }, (tx) =>
    runInTransaction(tx, [
      effectStatement(`update key_lock_codes set rewindow = false, updated_at = now()
        where tenant_id = ${sqlLiteral(job.tenantId, 'uuid')} and key_id = ${sqlLiteral(job.keyId, 'uuid')}
          and lock_id = any(${sqlArray(lockIds, 'uuid')})`),
    ]),
  );
}

/** Whether the key's code may be opening the door right now: a checked-in stay, or a window already begun. */
const mayBeInUse = (key: LoadedKey, now = new Date()) => key.status === 'active' || key.validFrom <= now;

/**
 * The door's code holds the key's new window: the door says so (no re-window flag, no error), and
 * the key comes off its lock's re-window incident.
 */
async function rewindowDone(job: JobAttempt, key: LoadedKey, door: Door): Promise<Step> {
  const { tenantId } = job;
  await runStatements({ role: 'app_service', tenantId }, [
    ...lockKeysBeforeDoorsStatements(tenantId, [key.id]),
    effectStatement(`update key_lock_codes set rewindow = false, rewindow_error = null, error = null, attempts = attempts + 1, updated_at = now()
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and key_id = ${sqlLiteral(key.id, 'uuid')}
        and lock_id = ${sqlLiteral(door.lockId, 'uuid')}`),
    clearKeyFromIncidentsStatement({
      tenantId,
      conditionKeys: [conditionKey.failed('rewindow', door.lockId)],
      keyId: key.id,
    }),
  ]);
  return { kind: 'done' };
}

/**
 * A re-window that did not reach the lock, for good: the code stays on the door with its old window
 * (it is never taken off to be set again while the guest may be using it), the door says why
 * (`rewindow_error`, shown to the desk and the guest), and the key counts on its lock's re-window
 * incident. The next window change, or the lock coming back online, tries again.
 */
async function failRewindow(job: JobAttempt, key: LoadedKey, door: Door, code: string): Promise<Step> {
  logger.warn({ keyId: key.id, lockId: door.lockId, providerCode: code }, 'window change not applied on lock');
  await asService({ tenantId: job.tenantId }, async (tx) => {
    await runInTransaction(tx, lockKeysBeforeDoorsStatements(job.tenantId, [key.id]));
    await runInTransaction(tx, [
      effectStatement(`update key_lock_codes set rewindow = false, rewindow_error = ${sqlLiteral(code, 'text')}, updated_at = now()
      where tenant_id = ${sqlLiteral(job.tenantId, 'uuid')} and key_id = ${sqlLiteral(key.id, 'uuid')}
        and lock_id = ${sqlLiteral(door.lockId, 'uuid')}`),
    ]);
    await countOnLockFailure(tx, {
      tenantId: job.tenantId,
      keyId: key.id,
      kind: 'rewindow',
      lock: { id: door.lockId, name: door.lockName, deviceId: door.deviceId },
      code,
    });
  });
  return { kind: 'final', code };
}

/**
 * Puts the key's new window on one door's code. Where the provider can, in place (Seam
 * `access_codes.update`, TTLock `/v3/keyboardPwd/change`): the code and PIN never leave the lock.
 * Where it cannot, the code is taken off and set again — but only while nobody can be using it (a
 * stay not begun); for a guest in the room that is refused (`rewindow_unsupported`), never done.
 */
async function rewindowDoor(job: JobAttempt, key: LoadedKey, door: Door, provider: LockProvider): Promise<Step> {
  const correlationId = `${key.id}:rewindow:${door.lockId.slice(0, 8)}:${job.attempt}`;
  const codeId = door.codeId!;
  if (provider.updateCodeWindow) {
    const updated = await provider.updateCodeWindow({
      deviceId: door.deviceId,
      codeId,
      validFrom: key.validFrom,
      expiresAt: key.expiresAt,
      correlationId,
    });
    if (updated.ok && updated.data.state === 'set') return rewindowDone(job, key, door);
    if (updated.ok && updated.data.state === 'setting') return { kind: 'retry', code: 'awaiting_confirmation' };
    if (!updated.ok && updated.code === 'code_not_found') return programAgain(job, key, door);
    const code = updated.ok ? 'failed_to_set_on_device' : updated.code;
    if (!updated.ok && updated.retryable) {
      await record(job, key, door, { from: [door.state], error: code });
      return { kind: 'retry', code };
    }
    return failRewindow(job, key, door, code);
  }
  if (mayBeInUse(key)) return failRewindow(job, key, door, 'rewindow_unsupported');
  const read = await provider.getCode({ deviceId: door.deviceId, codeId, correlationId });
  let gone = read.ok && (!read.data || read.data.state === 'absent');
  if (!gone) {
    const removed = await provider.removeCode({ deviceId: door.deviceId, codeId, correlationId });
    if (!removed.ok) {
      await record(job, key, door, { from: [door.state], error: removed.code });
      if (removed.retryable) return { kind: 'retry', code: removed.code };
      return failRewindow(job, key, door, removed.code);
    }
    gone = removed.data.state === 'absent';
  }
  if (!gone) return { kind: 'retry', code: 'awaiting_removal' };
  return programAgain(job, key, door);
}

/**
 * The door's code is off the lock (removed for a stay not begun, or gone by itself): the door is
 * `pending` again and the key's program job (queued in the same transaction) sets it with the new window.
 */
async function programAgain(job: JobAttempt, key: LoadedKey, door: Door): Promise<Step> {
  await asService({ tenantId: job.tenantId }, async (tx) => {
    await runInTransaction(tx, lockKeysBeforeDoorsStatements(job.tenantId, [key.id]));
    await runInTransaction(tx, [
      effectStatement(`update key_lock_codes set code_id = null, state = 'pending', rewindow = false, rewindow_error = null,
        attempts = 0, error = null, set_at = null, updated_at = now()
      where tenant_id = ${sqlLiteral(job.tenantId, 'uuid')} and key_id = ${sqlLiteral(key.id, 'uuid')}
        and lock_id = ${sqlLiteral(door.lockId, 'uuid')} and rewindow`),
    ]);
    await runInTransaction(tx, [
      clearKeyFromIncidentsStatement({
        tenantId: job.tenantId,
        conditionKeys: [conditionKey.failed('rewindow', door.lockId)],
        keyId: key.id,
      }),
    ]);
    await runInTransaction(tx, [
      effectStatement(`select app_enqueue_job('vendor_program_key',
        ${sqlLiteral(JSON.stringify({ tenantId: job.tenantId, keyId: key.id }), 'jsonb')},
        queue_name => ${sqlLiteral(`key:${key.id}`, 'text')}, max_attempts => 8)`),
    ]);
  });
  return { kind: 'done' };
}

/**
 * Puts a key's new window on every door whose code holds the old one (the outbox job
 * `vendor_rewindow_key`, queued by a stay's date change on the key's own queue), in place where the
 * provider can. A door the code never reached needs nothing (its program job reads the new window);
 * an offline code cannot change on its lock and keeps its window; an ended key's codes are being
 * removed. A door still waiting on the last attempt fails its re-window for good (`failRewindow`).
 */
export async function rewindowKeyOnLock(job: JobAttempt): Promise<void> {
  const key = await loadKey(job.tenantId, job.keyId);
  if (!key) return;
  const flagged = key.doors.filter((d) => d.rewindow);
  const live = key.status === 'pre_issued' || key.status === 'active';
  const redo = live ? flagged.filter((d) => d.codeId && !d.offline && d.state !== 'failed') : [];
  const nothingToDo = flagged.filter((d) => !redo.includes(d)).map((d) => d.lockId);
  if (nothingToDo.length > 0) await clearRewindow(job, nothingToDo);
  if (redo.length === 0) return;
  const waiting: { door: Door; code: string }[] = [];
  for (const door of redo) {
    const provider = await lockProviderFor(job.tenantId, door.provider);
    const outcome = provider.ok
      ? await rewindowDoor(job, key, door, provider.data)
      : await failRewindow(job, key, door, provider.code);
    if (outcome.kind === 'retry') waiting.push({ door, code: outcome.code });
  }
  if (waiting.length === 0) return;
  if (job.attempt >= job.maxAttempts) {
    for (const { door, code } of waiting) await failRewindow(job, key, door, code);
    return;
  }
  throw new RetryableProviderError(waiting.map((w) => w.code).join(','));
}
