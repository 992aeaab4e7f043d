import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, keylen, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Hashes a password with scrypt and a random salt: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS.keylen, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

// Verified against when the account does not exist, so a miss costs the same time as a wrong password.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Constant-time check of a password against a stored hash; `null` hash burns the same work and fails. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = (stored ?? DUMMY_HASH).split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected) && stored !== null;
}

/** The shortest and longest password anyone may choose (the CLI's `user-create` keeps to the same). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * Why a password someone wants to choose is refused, or null: at least 8 characters after the
 * normalisation hashing applies (NFKC, so "ｐａｓｓ" and "pass" count alike), at most 1024, and neither
 * the account's email nor its local part. No composition rules (NIST SP 800-63B): length is what counts.
 */
export function passwordProblem(password: string, email: string): 'too_short' | 'too_long' | 'is_email' | null {
  const normalised = password.normalize('NFKC');
  if ([...normalised].length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (password.length > PASSWORD_MAX_LENGTH) return 'too_long';
  const address = email.trim().toLowerCase();
  const lowered = normalised.trim().toLowerCase();
  if (lowered === address || lowered === address.split('@')[0]) return 'is_email';
  return null;
}
