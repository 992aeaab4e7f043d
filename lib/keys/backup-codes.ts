import type { Actor } from '../audit/actor';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { logger } from '../log/logger';
import { lockProviderFor } from '../locks/tenant-provider';

/** Who issues a backup code the job decided on. */
const BACKUP_JOB: Actor = { type: 'system', id: null, label: 'backup codes' };

export type BackupOutcome =
  { kind: 'not_needed' } | { kind: 'issued'; backupKeyId: string } | { kind: 'not_possible'; reason: string };

/**
 * The `key_backup_check` job, run shortly before a stay key must work: when its code has not been
 * confirmed on its lock, a code from the provider's pool of pre-programmed codes stands in — a key
 * of kind `backup`, same state and window, whose one door already has it. The guest page shows it,
 * the desk sees why (audit `key.backup_issued` with the door's error), and it ends with its key
 * (its code then leaves the lock like any other; the provider refills its pool).
 *
 * A backup code opens one lock: it stands in only for a key whose room has that one door.
 */
export async function checkBackupNeeded(
  job: { tenantId: string; keyId: string },
  actor: Actor = BACKUP_JOB,
  options: { evenIfSet?: boolean } = {},
): Promise<BackupOutcome> {
  // `evenIfSet`: the guest says the code does not open the door (lib/guests/guest-help.ts), whatever the lock said.
  const evenIfSet = options.evenIfSet === true;
  const { tenantId, keyId } = job;
  const key = await asService({ tenantId }, (tx) =>
    tx.accessKey.findFirst({
      where: { tenantId, id: keyId },
      include: { doors: { include: { lock: true } } },
    }),
  );
  if (!key || key.kind !== 'guest' || (key.status !== 'pre_issued' && key.status !== 'active'))
    return { kind: 'not_needed' };
  const unset = evenIfSet ? key.doors : key.doors.filter((d) => d.state !== 'set');
  if (unset.length === 0) return { kind: 'not_needed' };
  const standing = await asService({ tenantId }, (tx) =>
    tx.accessKey.count({ where: { tenantId, backupFor: keyId, status: { in: ['pre_issued', 'active'] } } }),
  );
  if (standing > 0) return { kind: 'not_needed' };
  if (key.doors.length !== 1) return notPossible(keyId, evenIfSet, 'backup_needs_single_door');
  const door = unset[0]!;
  if (!door.lock.supportsBackupCodes) return notPossible(keyId, evenIfSet, 'no_backup_pool');
  if (!door.codeId) return notPossible(keyId, evenIfSet, 'code_never_accepted');
  const provider = await lockProviderFor(tenantId, door.lock.provider);
  if (!provider.ok || !provider.data.pullBackupCode)
    return notPossible(keyId, evenIfSet, provider.ok ? 'no_backup_pool' : provider.code);
  const pulled = await provider.data.pullBackupCode({
    deviceId: door.lock.deviceId,
    codeId: door.codeId,
    correlationId: `${keyId}:backup`,
  });
  if (!pulled.ok) {
    if (pulled.retryable) throw new Error(`backup code not pulled (${pulled.code}); will retry`);
    return notPossible(keyId, evenIfSet, pulled.code);
  }
  return asService({ tenantId }, async (tx) => {
    // The key may have ended or been confirmed while the pool was asked: then the backup is not used.
    const [fresh] = await runInTransaction(tx, [
      statement<{ status: string; state: string }>(`
      select k.status::text, c.state::text from access_keys k
        join key_lock_codes c on c.tenant_id = k.tenant_id and c.key_id = k.id and c.lock_id = ${sqlLiteral(door.lockId, 'uuid')}
       where k.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and k.id = ${sqlLiteral(keyId, 'uuid')} for update of k`),
    ]);
    if (!fresh[0] || !['pre_issued', 'active'].includes(fresh[0].status) || (fresh[0].state === 'set' && !evenIfSet))
      return { kind: 'not_needed' } as const;
    const [inserted] = await runInTransaction(tx, [
      statement<{ id: string }>(`
      insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at, kind, backup_for)
      values (${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(key.reservationId, 'uuid')}, ${sqlLiteral(key.checkInId, 'uuid')}, ${sqlLiteral(key.roomId, 'uuid')},
        ${sqlLiteral(key.status, 'key_status')},
        ${sqlLiteral(pulled.data.pin, 'text')}, ${sqlLiteral(key.validFrom, 'timestamptz')},
        ${sqlLiteral(key.expiresAt, 'timestamptz')}, 'backup', ${sqlLiteral(keyId, 'uuid')})
      on conflict do nothing
      returning id`),
    ]);
    const backupKeyId = inserted[0]?.id;
    if (!backupKeyId) return { kind: 'not_possible', reason: 'backup_exists_or_pin_taken' } as const;
    // The pool's code is on the lock already; a PIN clash with a live key there refuses the backup.
    await runInTransaction(tx, [
      effectStatement(`insert into key_lock_codes (tenant_id, key_id, lock_id, state, code_id, set_at)
      values (${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(backupKeyId, 'uuid')},
        ${sqlLiteral(door.lockId, 'uuid')}, 'set', ${sqlLiteral(pulled.data.codeId, 'text')}, now())`),
    ]);
    const metadata = {
      reservationId: key.reservationId,
      standsInFor: keyId,
      lockId: door.lockId,
      lockName: door.lock.name,
    };
    await runInTransaction(tx, [
      effectStatement(`select app_audit(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(actor.type, 'actor_type')},
        ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')}, 'key.backup_issued', 'access_key',
        ${sqlLiteral(backupKeyId, 'uuid')}, ${sqlLiteral(key.roomId, 'uuid')}, ${sqlLiteral(evenIfSet && door.state === 'set' ? 'guest_code_problem' : (door.error ?? `code_${door.state}`), 'text')},
        ${sqlLiteral(JSON.stringify(metadata), 'jsonb')})`),
    ]);
    logger.info({ keyId, backupKeyId, lockId: door.lockId }, 'backup code issued');
    return { kind: 'issued', backupKeyId } as const;
  });
}

function notPossible(keyId: string, guestReported: boolean, reason: string): BackupOutcome {
  logger.warn(
    { keyId, reason },
    guestReported
      ? 'the guest says the code does not work, and no backup code can stand in'
      : 'key not on its lock in time, and no backup code can stand in',
  );
  return { kind: 'not_possible', reason };
}

/**
 * The desk's "Issue a backup code" for a key whose code is not on its door (a lock problem it can
 * act on): the same stand-in the job makes shortly before the stay, now, audited as the staff member.
 * A key whose code is on its door needs none (`conflict`); a lock without a pool, a key with several
 * doors or a code the lock never accepted cannot have one (`not_available`, with the reason).
 */
export async function issueBackupCode(input: {
  tenantId: string;
  keyId: string;
  actor: Actor;
}): Promise<{ backupKeyId: string }> {
  const outcome = await checkBackupNeeded(input, input.actor);
  if (outcome.kind === 'issued') return { backupKeyId: outcome.backupKeyId };
  if (outcome.kind === 'not_needed')
    throw new AppError('conflict', 'This key needs no backup code: its code is on its door, or a backup stands in.');
  throw new AppError('not_available', 'No backup code can stand in for this key.', { reason: outcome.reason });
}
