import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { hashPassword, passwordProblem, verifyPassword } from './password';
import { verifyOwnPassword } from './sign-in';

/** Why a new password is refused: the rules of `passwordProblem`, or the current password not given right. */
export type PasswordRefusal = ReturnType<typeof passwordProblem> | 'current_wrong' | 'same_as_current';

/**
 * A signed-in account changes its password. The current one is required — except when the session
 * was opened by a one-time password, which this replaces ("choose your password" at first sign-in).
 * The new one keeps to the rules (`passwordProblem`) and differs from the current one. Every session
 * of the account ends, this one too: the caller re-issues this browser's session with the generation
 * answered. A session that had already ended is `unauthorized`. Audited `user.password_changed` in
 * each of the account's tenants.
 */
export async function changeOwnPassword(input: {
  user: { id: string; email: string };
  sessionGeneration: number;
  mustChangePassword: boolean;
  current?: string;
  next: string;
  address?: string;
}): Promise<{ ok: true; sessionGeneration: number } | { ok: false; refusal: Exclude<PasswordRefusal, null> }> {
  const { user } = input;
  if (!input.mustChangePassword) {
    const current = input.current ?? '';
    if (!(await verifyOwnPassword({ userId: user.id, password: current, address: input.address })))
      return { ok: false, refusal: 'current_wrong' };
    if (current === input.next) return { ok: false, refusal: 'same_as_current' };
  } else {
    // The one-time password again is no choice (checked without the sign-in limit: this is no guess).
    const [rows] = await asService((tx) =>
      runInTransaction(tx, [
        statement<{ password_hash: string | null }>(
          `select password_hash from users where id = ${sqlLiteral(user.id, 'uuid')}`,
        ),
      ]),
    );
    const stored = rows[0]?.password_hash ?? null;
    if (stored && (await verifyPassword(input.next, stored))) return { ok: false, refusal: 'same_as_current' };
  }
  const problem = passwordProblem(input.next, user.email);
  if (problem) return { ok: false, refusal: problem };
  const passwordHash = await hashPassword(input.next);
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{
        generation: number;
      }>(`select app_set_own_password(${sqlLiteral(user.id, 'uuid')}, ${sqlLiteral(input.sessionGeneration, 'int')},
      ${sqlLiteral(passwordHash, 'text')}) as generation`),
    ]),
  );
  const generation = rows[0]?.generation;
  if (typeof generation !== 'number') throw new AppError('unauthorized', 'This session has ended: sign in again.');
  return { ok: true, sessionGeneration: generation };
}
