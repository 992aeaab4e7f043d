/**
 * A lock problem as the desk reads it (issue 28, item 11 f): what is wrong, in words a shift can act
 * on, and what it can do about it — pure functions of a door and its lock (no imports: the desk's
 * components use them too), shared by the reservation page and the check-in warning.
 */
export const LOCK_PROBLEMS = [
  'device_offline',
  'gateway_offline',
  'no_gateway',
  'missing',
  'no_lock',
  'quota',
  'clock',
  'credentials',
  'no_space',
  'duplicate',
  'not_confirmed',
  'other',
] as const;
export type LockProblem = (typeof LOCK_PROBLEMS)[number];

/** What the desk can do: a code from the provider's backup pool, a new PIN, or the manager. */
export type LockProblemAction = 'backup' | 'reissue' | 'call_manager';

/** The door's failure codes (adapters' and sync-provider's own) in the desk's kinds of problem. */
const BY_ERROR: Record<string, LockProblem> = {
  device_offline: 'device_offline',
  device_busy: 'device_offline',
  gateway_offline: 'gateway_offline',
  gateway_busy: 'gateway_offline',
  no_gateway_near_device: 'no_gateway',
  device_not_found: 'missing',
  code_device_mismatch: 'missing',
  no_lock_device: 'no_lock',
  quota_exceeded: 'quota',
  rate_limited: 'quota',
  clock_skew: 'clock',
  unauthorized: 'credentials',
  invalid_client: 'credentials',
  invalid_credentials: 'credentials',
  refresh_token_invalid: 'credentials',
  account_disconnected: 'credentials',
  permission_denied: 'credentials',
  no_space_for_access_code_on_device: 'no_space',
  duplicate_code_on_device: 'duplicate',
  not_confirmed: 'not_confirmed',
  failed_to_set_on_device: 'not_confirmed',
  timeout: 'not_confirmed',
};

type DoorLike = { state: string; error: string | null; rewindowError?: string | null };
type LockLike = { online: boolean | null; offlineReason: string | null };

/** The kind of a failure code; `_not_configured` is missing credentials. */
export function problemOfCode(code: string | null): LockProblem {
  if (!code) return 'other';
  if (code.endsWith('_not_configured')) return 'credentials';
  return BY_ERROR[code] ?? 'other';
}

/** What the lock says of itself when it is not online; null while online or unknown. */
export function lockDown(lock: LockLike): LockProblem | null {
  if (lock.online !== false && lock.offlineReason !== 'missing') return null;
  const reason = lock.offlineReason;
  return reason === 'gateway_offline' || reason === 'no_gateway' || reason === 'missing' ? reason : 'device_offline';
}

/**
 * Why a live key's code is not (rightly) on this door, or null when it is: a door that failed, one
 * still waiting while its lock is down, or a code whose new window the lock refused. The lock's own
 * state names the problem when it is down (an offline lock explains a failure better than its code).
 */
export function doorProblem(door: DoorLike, lock: LockLike): LockProblem | null {
  const down = lockDown(lock);
  if (door.state === 'failed') return down ?? problemOfCode(door.error);
  if ((door.state === 'pending' || door.state === 'setting') && down) return down;
  if (door.state === 'set' && door.rewindowError) return down ?? problemOfCode(door.rewindowError);
  return null;
}

/**
 * What the desk can do about a problem. A backup code only where the lock's provider keeps a pool and
 * the key has that one door (`backupPossible`); a new PIN where the PIN itself is the trouble or the
 * lock may take a fresh try; the manager where only someone with the provider's account can help.
 */
export function actionsFor(problem: LockProblem, options: { backupPossible: boolean }): LockProblemAction[] {
  const actions: LockProblemAction[] = [];
  if (options.backupPossible && problem !== 'no_lock' && problem !== 'missing') actions.push('backup');
  if (problem === 'duplicate' || problem === 'not_confirmed' || problem === 'other' || problem === 'no_space')
    actions.push('reissue');
  if (problem !== 'duplicate') actions.push('call_manager');
  return actions;
}
