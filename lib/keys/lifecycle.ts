import { AppError } from '../errors';

/**
 * The key lifecycle. The same table is enforced in SQL by the trigger function in
 * prisma/sql/keys/access_keys_guard_transition.sql; key-states.test.ts checks both agree on every pair.
 */
export const KEY_STATES = ['pre_issued', 'active', 'revoked', 'expired'] as const;
export type KeyState = (typeof KEY_STATES)[number];

export const KEY_TRANSITIONS: Record<KeyState, readonly KeyState[]> = {
  pre_issued: ['active', 'revoked', 'expired'],
  active: ['revoked', 'expired'],
  revoked: [],
  expired: [],
};

/** Revoked and expired are terminal: an ended key's status, window and reason never change again. */
export function isTerminal(state: KeyState): boolean {
  return KEY_TRANSITIONS[state].length === 0;
}

export function canTransition(from: KeyState, to: KeyState): boolean {
  return KEY_TRANSITIONS[from].includes(to);
}

/** Throws `illegal_transition` (with `from`, `to`) unless the lifecycle allows the move. */
export function assertTransition(from: KeyState, to: KeyState): void {
  if (!canTransition(from, to)) {
    throw new AppError('illegal_transition', `A key cannot go from ${from} to ${to}.`, { from, to });
  }
}
