import { createHash } from 'node:crypto';
import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { logger } from '../log/logger';
import { hitRateLimits } from '../ratelimit/rate-limit';
import { hashAccountToken, isAccountTokenShape, newAccountLink, tokenHashLiteral } from './account-tokens';
import { hashPassword } from './password';

const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/** Reset links asked for per client address and per email, each a quarter of an hour. */
export const RESETS_PER_ADDRESS = 10;
export const RESETS_PER_EMAIL = 3;

/**
 * "Forgot your password": for an email with an account, a link (1 h, single use; any earlier open
 * link of the account ends) mailed to it; for any other email, nothing. The caller answers the same
 * in both cases and nothing here tells them apart: the same limits are counted first for every email
 * (per client address and per email), and the answer is always `{ sent: true }`.
 */
export async function requestPasswordReset(input: {
  email: string;
  address?: string;
  locale: string;
}): Promise<{ sent: true }> {
  const email = input.email.trim().toLowerCase();
  await hitRateLimits([
    {
      bucket: `password-reset:addr:${hash(input.address || 'unknown')}`,
      windowSeconds: 900,
      limit: RESETS_PER_ADDRESS,
    },
    { bucket: `password-reset:email:${hash(email)}`, windowSeconds: 900, limit: RESETS_PER_EMAIL },
  ]);
  const link = newAccountLink('password-reset');
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{
        made: boolean;
      }>(`select app_request_password_reset(${sqlLiteral(email, 'text')}, ${sqlLiteral(link.id, 'uuid')},
        ${tokenHashLiteral(link.tokenHash)},
      ${sqlLiteral(input.locale, 'text')}) as made`),
    ]),
  );
  logger.info({ made: rows[0]?.made ?? false }, 'password reset asked for');
  return { sent: true };
}

/**
 * Sets a new password through a reset link, once: a used, ended, expired or unknown link is
 * `not_found`. Every session of the account ends (its generation moves). The caller has checked the
 * password's rules against the account's email (`resetAccountEmail`).
 */
export async function resetPassword(input: {
  token: string;
  password: string;
}): Promise<{ userId: string; email: string }> {
  if (!isAccountTokenShape(input.token)) throw new AppError('not_found', 'This link is not valid any more.');
  const passwordHash = await hashPassword(input.password);
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{
        user_id: string;
        email: string;
      }>(`select * from app_reset_password(${tokenHashLiteral(hashAccountToken(input.token))},
      ${sqlLiteral(passwordHash, 'text')})`),
    ]),
  );
  return { userId: rows[0]!.user_id, email: rows[0]!.email };
}

/**
 * The email of the account an open reset link is for (the page shows it; a new password is checked
 * against it), or null for a used, ended, expired or unknown link.
 */
export async function resetAccountEmail(token: string): Promise<string | null> {
  if (!isAccountTokenShape(token)) return null;
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{ email: string }>(`select u.email from password_resets r join users u on u.id = r.user_id
      where r.token_hash = ${tokenHashLiteral(hashAccountToken(token))}
        and r.used_at is null and r.ended_at is null and r.expires_at > now()`),
    ]),
  );
  return rows[0]?.email ?? null;
}
