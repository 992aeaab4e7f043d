import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { Tx } from '../db/tx';

/** The secret behind guest tokens: GUEST_LINK_SECRET, else derived from NEXTAUTH_SECRET. */
function linkSecret(): string {
  const secret = process.env.GUEST_LINK_SECRET || process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error('GUEST_LINK_SECRET or NEXTAUTH_SECRET must be set');
  return secret;
}

/**
 * A token for a row the server can name again without storing it (decision 003): 256 bits,
 * HMAC-SHA256 of `<purpose>:<the row's random id>` under the server's secret. Only its hash is stored.
 */
export function derivedToken(
  purpose: 'guest-link' | 'staff-invitation' | 'password-reset' | 'sign-up' | 'booking-code',
  id: string,
): string {
  return createHmac('sha256', linkSecret()).update(`${purpose}:${id}`).digest('base64url');
}

/**
 * A guest link's token: 256 bits, HMAC-SHA256 of the link's random id under the server's secret.
 * Only its hash is stored; the server can show the link again (QR code, API) without storing it.
 */
export function guestTokenFor(linkId: string): string {
  return derivedToken('guest-link', linkId);
}

/** The stored form of a guest token (sha256). */
export function hashGuestToken(token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(token).digest());
}

/** The app's public base URL (APP_URL, else this host's port), without a trailing slash. */
export function appBaseUrl(): string {
  return (process.env.APP_URL || `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
}

export function guestUrl(token: string): string {
  return `${appBaseUrl()}/k/${token}`;
}

export const GUEST_LINK_GRACE_MS = 24 * 3_600_000;

/** Creates the guest link of a reservation, expiring a day after the stay ends. */
export async function createGuestLink(
  tx: Tx,
  input: { tenantId: string; reservationId: string; endsAt: Date },
): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = guestTokenFor(id);
  await tx.guestLink.create({
    data: {
      id,
      tenantId: input.tenantId,
      reservationId: input.reservationId,
      tokenHash: hashGuestToken(token),
      expiresAt: new Date(input.endsAt.getTime() + GUEST_LINK_GRACE_MS),
    },
  });
  return { id, token };
}

/** A guest token has this shape; anything else is rejected before touching the database. */
export function isGuestTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
