import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a stand-in's key looks like: a test key, with enough randomness after the prefix not to be guessed. */
export const STANDIN_API_KEY = /^sk_test_[A-Za-z0-9]{32,}$/;

/**
 * A fresh key for one run of the Stripe stand-in, made by whoever starts it (the launcher, `npm run
 * stripe-standin`, a test): the stand-in takes this key and no other, and the app is handed the same one.
 */
export function newStandinApiKey(): string {
  return `sk_test_${randomBytes(32).toString('hex')}`;
}

/** True when `given` is `expected`, compared in constant time (their digests, so lengths leak nothing either). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
