import { randomUUID } from 'node:crypto';
import { sqlLiteral } from '../db/tx';
import { appBaseUrl, derivedToken, hashGuestToken, isGuestTokenShape } from './guest-links';

/** What an account link does: join a tenant, set a new password, or open an organisation (sign-up). */
export type AccountLinkKind = 'staff-invitation' | 'password-reset' | 'sign-up';

const PATHS: Record<AccountLinkKind, string> = {
  'staff-invitation': '/invitations',
  'password-reset': '/password-reset',
  'sign-up': '/sign-up',
};

/**
 * A new account link's row id, token and stored hash. The token is derived from the id (decision 003),
 * so the worker can write the link into its mail later while the database keeps only the hash.
 */
export function newAccountLink(kind: AccountLinkKind): {
  id: string;
  token: string;
  tokenHash: Uint8Array<ArrayBuffer>;
} {
  const id = randomUUID();
  const token = derivedToken(kind, id);
  return { id, token, tokenHash: hashAccountToken(token) };
}

/** The address of an account link (absolute, for a mail). */
export function accountLinkUrl(kind: AccountLinkKind, id: string): string {
  return `${appBaseUrl()}${PATHS[kind]}/${derivedToken(kind, id)}`;
}

/** The stored form of an account link's token (sha256), as for guest links. */
export const hashAccountToken = hashGuestToken;

/** A token hash as a typed SQL literal (`'\\x…'::bytea`), for a Statement's text. */
export function tokenHashLiteral(hash: Uint8Array): string {
  return sqlLiteral(`\\x${Buffer.from(hash).toString('hex')}`, 'bytea');
}

/** An account link's token has a guest token's shape (43 base64url characters); anything else is refused unread. */
export const isAccountTokenShape = isGuestTokenShape;
