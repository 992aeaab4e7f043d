import { createHash } from 'node:crypto';
import { asService, runInTransaction, sqlLiteral, statement, type Statement, type Tx } from '../db/tx';
import { AppError } from '../errors';
import { logger } from '../log/logger';
import { giveTokens, takeAllTokens, type BucketRule } from '../ratelimit/rate-limit';
import { verifyPassword } from './password';
import { writeAuditEvent } from '../audit/write-audit-event';

/** Failed sign-ins allowed to one account from one client address, refilled over `REFILL_SECONDS`. */
export const FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
/**
 * Failed sign-ins allowed from one client address across all known accounts (credential stuffing),
 * and, in a bucket of its own, for emails that have no account: guesses at unknown emails never
 * spend what the desk behind the same address (a hotel's Wi-Fi) needs to sign in.
 */
export const FAILURES_PER_ADDRESS = 100;
const REFILL_SECONDS = 15 * 60;

/**
 * A signed-in account: `sessionGeneration` goes into the session (a later password change ends it);
 * `mustChangePassword` sends the session to "choose your password" before anything else.
 */
export type SignedInUser = {
  id: string;
  email: string;
  name: string;
  sessionGeneration: number;
  mustChangePassword: boolean;
};
export type SignInResult = { ok: true; user: SignedInUser } | { ok: false };

type SignInAccount = {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  password_one_time: boolean;
  session_generation: number;
  may_enter: boolean;
};

/** The account of an email, as sign-in sees it (`app_sign_in_account`: an expired one-time password reads as none). */
async function signInAccount(email: string): Promise<SignInAccount[]> {
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [statement<SignInAccount>(`select * from app_sign_in_account(${sqlLiteral(email, 'text')})`)]),
  );
  return rows;
}

const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
const accountPrefix = (userId: string) => `sign-in:user:${userId}:`;

function pairRule(userId: string, address: string): BucketRule {
  return {
    bucket: `${accountPrefix(userId)}addr:${hash(address)}`,
    capacity: FAILURES_PER_ACCOUNT_AND_ADDRESS,
    perSecond: FAILURES_PER_ACCOUNT_AND_ADDRESS / REFILL_SECONDS,
  };
}

function addressRule(address: string, accounts: 'known' | 'unknown'): BucketRule {
  return {
    bucket: accounts === 'known' ? `sign-in:addr:${hash(address)}` : `sign-in:addr:unknown:${hash(address)}`,
    capacity: FAILURES_PER_ADDRESS,
    perSecond: FAILURES_PER_ADDRESS / REFILL_SECONDS,
  };
}

/**
 * Checks an email and password. Every failure looks the same to the caller (same answer, and the
 * same hashing work whether the account exists, the password is wrong or the address is slowed
 * down). Failures cost tokens per (account, client address) and per address, taken before the
 * password is verified so concurrent attempts cannot exceed the budget; a success gives them back.
 * An address out of tokens is refused for that account (or, past the per-address budget, for every
 * account); other addresses are never affected, so no one can lock an account's owner out.
 */
export async function signInWithPassword(input: {
  email: string;
  password: string;
  address?: string;
}): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const address = input.address || 'unknown';
  const users = await signInAccount(email);
  const user = users.length === 1 ? users[0]! : null;
  // Unknown accounts count against the address's own bucket for them only: no bucket per guessed
  // email, and none of the known accounts' budget.
  const rules = user ? [pairRule(user.id, address), addressRule(address, 'known')] : [addressRule(address, 'unknown')];
  const taken = await takeAllTokens(rules);
  if (!taken.allowed) {
    await verifyPassword(input.password, null);
    const pairEmpty = user !== null && taken.tokens[0]! < 1;
    if (user) await noteThrottled(user, address, pairEmpty ? 'account_address' : 'address');
    logger.warn(
      { userId: user?.id ?? null, address, reason: pairEmpty ? 'account_address_throttled' : 'address_throttled' },
      'sign-in refused',
    );
    return { ok: false };
  }
  // No hash: no password chosen yet, or a one-time password past its end — refused like a wrong one.
  const passwordOk = await verifyPassword(input.password, user?.password_hash ?? null);
  // A member deactivated in every tenant, with no invitation to accept, signs in nowhere: refused
  // like a wrong password.
  if (user && passwordOk && user.may_enter) {
    await giveTokens(rules);
    return {
      ok: true,
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        sessionGeneration: user.session_generation,
        mustChangePassword: user.password_one_time,
      },
    };
  }
  // This failure spent the pair's last token: from now on the address is refused for this account.
  if (user && taken.tokens[0]! < 1) await noteThrottled(user, address, 'account_address');
  logger.warn(
    {
      userId: user?.id ?? null,
      address,
      reason: !user
        ? 'unknown_account'
        : passwordOk
          ? 'deactivated'
          : user.password_hash === null
            ? 'no_password'
            : 'wrong_password',
    },
    'sign-in failed',
  );
  return { ok: false };
}

/**
 * Checks a signed-in account's current password (before it is changed) under the same limit as
 * sign-in: failures spend the (account, address) bucket — five per 15 minutes — and a success gives
 * its token back, so a stolen session cannot try passwords faster than the sign-in form.
 */
export async function verifyOwnPassword(input: {
  userId: string;
  password: string;
  address?: string;
}): Promise<boolean> {
  const rules = [pairRule(input.userId, input.address || 'unknown')];
  const taken = await takeAllTokens(rules);
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{ password_hash: string | null }>(
        `select password_hash from users where id = ${sqlLiteral(input.userId, 'uuid')}`,
      ),
    ]),
  );
  const ok = await verifyPassword(input.password, taken.allowed ? (rows[0]?.password_hash ?? null) : null);
  if (ok) await giveTokens(rules);
  return ok;
}

/**
 * Audits that an account is refused from an address — its own five failures there (`account_address`)
 * or the address's failures across known accounts (`address`) — in every tenant the account belongs
 * to (each operator sees attacks on its staff), at most once per pair per refill window, whatever the
 * number of attempts, so failures cannot flood the audit log.
 */
async function noteThrottled(
  user: { id: string; email: string },
  address: string,
  limit: 'account_address' | 'address',
): Promise<void> {
  await asService(async (tx) => {
    const marker = `${accountPrefix(user.id)}throttled:${hash(address)}`;
    const [rows] = await runInTransaction(tx, [
      statement<{ allowed: boolean }>(
        `select allowed from app_rate_take(${sqlLiteral(marker, 'text')}, 1, ${sqlLiteral(1 / REFILL_SECONDS, 'float8')})`,
      ),
    ]);
    if (!rows[0]?.allowed) return;
    const memberships = await tx.membership.findMany({ where: { userId: user.id }, select: { tenantId: true } });
    for (const { tenantId } of memberships) {
      await writeAuditEvent(tx, {
        tenantId,
        actor: { type: 'system', id: null, label: 'sign-in limits' },
        action: 'user.sign_in_throttled',
        subject: { type: 'user', id: user.id },
        reason: 'too_many_failed_sign_ins',
        metadata: {
          address,
          limit,
          failures: limit === 'address' ? FAILURES_PER_ADDRESS : FAILURES_PER_ACCOUNT_AND_ADDRESS,
          refillMinutes: REFILL_SECONDS / 60,
        },
      });
    }
  });
}

/** Deletes every sign-in bucket of an account (all addresses); its rows count those deleted. */
function clearSignInLimitsStatement(userId: string): Statement<number> {
  return {
    sql: `with cleared as (delete from rate_buckets where starts_with(bucket, ${sqlLiteral(accountPrefix(userId), 'text')}) returning 1)
      select count(*)::int as n from cleared`,
    rows: (rows) => Number(rows[0]?.n ?? 0),
  };
}

/** Clears every sign-in bucket of an account (all addresses), in the caller's transaction; how many were cleared. */
export function clearSignInLimits(tx: Tx, userId: string): Promise<number> {
  return runInTransaction(tx, [clearSignInLimitsStatement(userId)]).then(([cleared]) => cleared);
}

/** `user-unlock`: clears every sign-in bucket of the account (all addresses); an unknown email is `not_found`. */
export async function unlockUser(input: { email: string }): Promise<{ unlocked: true }> {
  const email = input.email.trim().toLowerCase();
  const cleared = await asService(async (tx) => {
    const users = await tx.user.findMany({ where: { email }, select: { id: true } });
    if (users.length !== 1) return null;
    return clearSignInLimits(tx, users[0]!.id);
  });
  if (cleared === null) throw new AppError('not_found', 'No account has this email.');
  logger.info({ cleared }, 'sign-in limits cleared');
  return { unlocked: true };
}
