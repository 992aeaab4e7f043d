import { asService } from '../db/tx';
import { verifyPassword } from './password';

export const MAX_FAILED_SIGN_INS = 5;
export const LOCK_MINUTES = 15;

export type SignInResult = { ok: true; user: { id: string; email: string; name: string } } | { ok: false };

/**
 * Checks an email and password. Every failure looks the same to the caller (same message, and the
 * same hashing work whether or not the account exists); repeated failures lock the account a while.
 */
export async function signInWithPassword(input: { email: string; password: string }): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const users = await asService((tx) => tx.user.findMany({ where: { email } }));
  const user = users.length === 1 ? users[0]! : null;
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? null);
  if (!user) return { ok: false };
  const locked = user.lockedUntil !== null && user.lockedUntil > new Date();
  if (passwordOk && !locked) {
    if (user.failedSignIns > 0) {
      await asService((tx) => tx.user.update({ where: { id: user.id }, data: { failedSignIns: 0, lockedUntil: null } }));
    }
    return { ok: true, user: { id: user.id, email: user.email, name: user.name } };
  }
  if (!locked) {
    await asService((tx) =>
      tx.$executeRaw`update users set
          failed_sign_ins = failed_sign_ins + 1,
          locked_until = case when failed_sign_ins + 1 >= ${MAX_FAILED_SIGN_INS}
            then now() + make_interval(mins => ${LOCK_MINUTES}) else locked_until end
        where id = ${user.id}::uuid`,
    );
  }
  return { ok: false };
}
