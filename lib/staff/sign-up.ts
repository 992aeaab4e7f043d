import { createHash } from 'node:crypto';
import { z } from 'zod';
import { hashAccountToken, isAccountTokenShape, newAccountLink, tokenHashLiteral } from '../auth/account-tokens';
import { hashPassword, PASSWORD_MAX_LENGTH, passwordProblem } from '../auth/password';
import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { isTimeZone } from '../facilities/time-zones';
import { logger } from '../log/logger';
import { hitRateLimits } from '../ratelimit/rate-limit';

// Sign-up (issue 32): anyone may ask to open an organisation — a tenant, its first facility and its
// manager — and nothing of it exists until the link mailed to the email is followed (24 h, single
// use). The SQL functions app_request_sign_up and app_complete_sign_up (prisma/sql/staff/) do every
// step; `SIGN_UP=closed` turns all of it off.

const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/** Sign-ups asked for per client address and per email, each an hour. */
export const SIGN_UPS_PER_ADDRESS = 10;
export const SIGN_UPS_PER_EMAIL = 3;
/** How long a sign-up's link works (the page and the mail say so). */
export const SIGN_UP_LINK_HOURS = 24;

/** Whether this install lets people sign up: open unless `SIGN_UP=closed`. */
export function signUpOpen(): boolean {
  return (process.env.SIGN_UP ?? '').trim().toLowerCase() !== 'closed';
}

function refuseWhenClosed(): void {
  if (!signUpOpen()) throw new AppError('forbidden', 'Sign-up is closed on this install.');
}

const text = (max: number, message: string) => z.string().trim().min(1, message).max(max, message);

/**
 * What the sign-up form sends; the messages are message keys (the form shows them at their fields). No password: it is
 * chosen on the link's page, by whoever follows the link the mailbox received (issue 43.1).
 */
export const ZSignUpSchema = z.object({
  organisationName: text(200, 'signUp.error.organisationName'),
  facilityName: text(200, 'signUp.error.facilityName'),
  timeZone: z.string().refine(isTimeZone, 'facilities.error.timeZone'),
  name: text(200, 'signUp.error.name'),
  email: z.string().trim().toLowerCase().pipe(z.email('signUp.error.email').max(320, 'signUp.error.email')),
});
export type TSignUp = z.output<typeof ZSignUpSchema>;

/** The password typed on a sign-up's link page, twice. */
export const ZSignUpPasswordSchema = z.object({
  next: z.string().max(PASSWORD_MAX_LENGTH, 'account.password.error.too_long'),
  confirm: z.string().max(PASSWORD_MAX_LENGTH, 'account.password.error.too_long'),
});
export type TSignUpPassword = z.output<typeof ZSignUpPasswordSchema>;

/**
 * Why a sign-up's password is refused (issue 13's rules, checked against the email, and typed the
 * same twice), as the field and the message key the form shows; null when it is fine.
 */
export function signUpPasswordProblem(input: TSignUpPassword & { email: string }): {
  field: 'next' | 'confirm';
  message: `account.password.error.${'mismatch' | 'too_short' | 'too_long' | 'is_email'}`;
} | null {
  const problem = passwordProblem(input.next, input.email);
  if (problem) return { field: 'next', message: `account.password.error.${problem}` };
  if (input.next !== input.confirm) return { field: 'confirm', message: 'account.password.error.mismatch' };
  return null;
}

/**
 * Asks for a sign-up: counts the limits (per client address and per email, the same for every email),
 * then writes the pending sign-up — what was typed, never a password — and queues its mail, in one
 * transaction. The answer is `{ sent: true }` whether or not the email has an account. Closed
 * (`SIGN_UP=closed`) → `forbidden`; bad input → `invalid_request`; over a limit → `rate_limited`; each
 * writes nothing.
 */
export async function requestSignUp(input: TSignUp & { address?: string; locale: string }): Promise<{ sent: true }> {
  refuseWhenClosed();
  const parsed = ZSignUpSchema.safeParse(input);
  if (!parsed.success) throw new AppError('invalid_request', 'The sign-up form is incomplete or invalid.');
  const form = parsed.data;
  await hitRateLimits([
    { bucket: `sign-up:addr:${hash(input.address || 'unknown')}`, windowSeconds: 3600, limit: SIGN_UPS_PER_ADDRESS },
    { bucket: `sign-up:email:${hash(form.email)}`, windowSeconds: 3600, limit: SIGN_UPS_PER_EMAIL },
  ]);
  const link = newAccountLink('sign-up');
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{ had_account: boolean }>(`select app_request_sign_up(${sqlLiteral(link.id, 'uuid')},
        ${tokenHashLiteral(link.tokenHash)}, ${sqlLiteral(form.email, 'text')}, ${sqlLiteral(form.name, 'text')},
        ${sqlLiteral(form.organisationName, 'text')}, ${sqlLiteral(form.facilityName, 'text')},
        ${sqlLiteral(form.timeZone, 'text')}, ${sqlLiteral(input.locale, 'text')}) as had_account`),
    ]),
  );
  logger.info({ hadAccount: rows[0]?.had_account ?? false }, 'sign-up asked for');
  return { sent: true };
}

/** What the link's page shows of an open sign-up, to whoever holds its link. */
export type SignUpPage = {
  email: string;
  organisationName: string;
  facilityName: string;
  timeZone: string;
  expiresAt: Date;
  /** The email has an account that signs in: its owner signs in as it to open the organisation. */
  accountUserId: string | null;
};

/** Whether following the link asks for the account's password: the email has no account that signs in. */
export const choosesPassword = (page: Pick<SignUpPage, 'accountUserId'>): boolean => page.accountUserId === null;

/** The open sign-up a link names, or null (unknown, used, ended or past its end — all alike). */
export async function readSignUp(token: string): Promise<SignUpPage | null> {
  if (!isAccountTokenShape(token)) return null;
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<SignUpPage>(`
      select s.email, s.organisation_name as "organisationName", s.facility_name as "facilityName",
             s.time_zone as "timeZone", s.expires_at as "expiresAt",
             (select u.id from users u where u.email = s.email and u.password_hash is not null) as "accountUserId"
        from sign_ups s
       where s.token_hash = ${tokenHashLiteral(hashAccountToken(token))}
         and s.used_at is null and s.ended_at is null and s.expires_at > now()`),
    ]),
  );
  return rows[0] ?? null;
}

export type SignUpDone = {
  tenantId: string;
  facilityId: string;
  userId: string;
  email: string;
  name: string;
  sessionGeneration: number;
  /** The link made the account (else the email's own account, signed in, is the manager). */
  newAccount: boolean;
};

/**
 * Follows a sign-up's link, once: the tenant, its first facility, the manager's account and its
 * membership in ONE transaction that uses the link (two at once make one tenant), audited
 * `tenant.signed_up`. An email with no account that signs in (none, or one made for an invitation)
 * gets the password typed on the link's page (`password`, checked by issue 13's rules; missing or
 * refused → `invalid_request`, with the field); an email whose account signs in needs that account
 * signed in (`userId`; `forbidden` otherwise), which becomes the manager and keeps its password —
 * a sign-up never gives an account a password its follower did not type. Used, ended, expired or
 * unknown → `not_found`; closed → `forbidden`; each writes nothing.
 */
export async function completeSignUp(input: {
  token: string;
  userId?: string | null;
  password?: TSignUpPassword | null;
}): Promise<SignUpDone> {
  refuseWhenClosed();
  if (!isAccountTokenShape(input.token)) throw new AppError('not_found', 'This link is not valid any more.');
  let passwordHash: string | null = null;
  if (input.password) {
    const page = await readSignUp(input.token);
    if (!page) throw new AppError('not_found', 'This link is not valid any more.');
    const problem = signUpPasswordProblem({ ...input.password, email: page.email });
    if (problem)
      throw new AppError('invalid_request', 'The password is not acceptable.', {
        issues: [{ path: problem.field, message: problem.message, code: 'password' }],
      });
    passwordHash = await hashPassword(input.password.next);
  }
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{
        tenant_id: string;
        facility_id: string;
        user_id: string;
        email: string;
        name: string;
        session_generation: number;
        new_account: boolean;
      }>(`select * from app_complete_sign_up(${tokenHashLiteral(hashAccountToken(input.token))},
        ${sqlLiteral(input.userId ?? null, 'uuid')}, ${sqlLiteral(passwordHash, 'text')})`),
    ]),
  );
  const row = rows[0]!;
  return {
    tenantId: row.tenant_id,
    facilityId: row.facility_id,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    sessionGeneration: row.session_generation,
    newAccount: row.new_account,
  };
}

/** How long an unused sign-up is kept after its link expired (for a person asking "did my sign-up arrive?"). */
export const SIGN_UP_KEPT_DAYS = 7;

/**
 * The worker's hourly sweep: an unused sign-up is removed (with its mail) `SIGN_UP_KEPT_DAYS` after it expired. Used
 * ones stay: they say what opened which tenant.
 */
export async function sweepSignUps(): Promise<{ removed: number }> {
  return asService(async (tx) => {
    const [removed] = await runInTransaction(tx, [
      statement<{ id: string }>(`delete from sign_ups
        where used_at is null and expires_at < now() - make_interval(days => ${sqlLiteral(SIGN_UP_KEPT_DAYS, 'int')})
        returning id`),
    ]);
    return { removed: removed.length };
  });
}
