import { createHash } from 'node:crypto';
import { asService } from '../db/tx';
import { isAppError } from '../errors';
import { logger } from '../log/logger';
import { takeTokens } from '../ratelimit/rate-limit';
import { verifyPassword } from './password';

export const MAX_FAILED_SIGN_INS = 5;
export const LOCK_MINUTES = 15;

export type SignInResult = { ok: true; user: { id: string; email: string; name: string } } | { ok: false };

/**
 * Checks an email and password. Every failure looks the same to the caller (same message, and the
 * same hashing work whether or not the account exists); repeated failures lock the account a while.
 */
export async function signInWithPassword(input: { email: string; password: string; address?: string }): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
  try {
    // 10 attempts per account and 100 per address (a front desk shares one), refilled over 15 minutes.
    await takeTokens([
      { bucket: `sign-in:account:${hash(email)}`, capacity: 10, perSecond: 10 / 900 },
      { bucket: `sign-in:address:${hash(input.address ?? 'unknown')}`, capacity: 100, perSecond: 100 / 900 },
    ]);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'rate_limited') throw error;
    await verifyPassword(input.password, null);
    logger.warn({ reason: 'rate_limited' }, 'sign-in refused');
    return { ok: false };
  }
  const users = await asService((tx) => tx.user.findMany({ where: { email } }));
  const user = users.length === 1 ? users[0]! : null;
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? null);
  if (!user) {
    logger.warn({ reason: 'unknown_account' }, 'sign-in failed');
    return { ok: false };
  }
  const locked = user.lockedUntil !== null && user.lockedUntil > new Date();
  if (passwordOk && !locked) {
    if (user.failedSignIns > 0) {
      await asService((tx) => tx.user.update({ where: { id: user.id }, data: { failedSignIns: 0, lockedUntil: null } }));
    }
    return { ok: true, user: { id: user.id, email: user.email, name: user.name } };
  }
  await asService(async (tx) => {
    const updated = locked
      ? [{ failed_sign_ins: user.failedSignIns, locked: true }]
      : await tx.$queryRaw<{ failed_sign_ins: number; locked: boolean }[]>`update users set
          failed_sign_ins = failed_sign_ins + 1,
          locked_until = case when failed_sign_ins + 1 >= ${MAX_FAILED_SIGN_INS}
            then now() + make_interval(mins => ${LOCK_MINUTES}) else locked_until end
        where id = ${user.id}::uuid returning failed_sign_ins, coalesce(locked_until > now(), false) as locked`;
    // Audited in every tenant the account belongs to: each operator sees attempts on its staff.
    const memberships = await tx.membership.findMany({ where: { userId: user.id }, select: { tenantId: true } });
    for (const { tenantId } of memberships) {
      await tx.auditEvent.create({
        data: {
          tenantId, actorType: 'user', actorId: user.id, actorLabel: user.email, action: 'user.sign_in_failed', subjectType: 'user', subjectId: user.id,
          reason: locked ? 'account_locked' : 'wrong_password', metadata: { failedSignIns: updated[0]?.failed_sign_ins ?? null, lockedNow: updated[0]?.locked ?? false },
        },
      });
    }
  });
  logger.warn({ userId: user.id, reason: locked ? 'account_locked' : 'wrong_password' }, 'sign-in failed');
  return { ok: false };
}
