import { createHmac, randomBytes } from 'node:crypto';

// The Svix signing scheme written out by hand, so tests do not sign with the library that verifies.

/** A fresh Svix secret: `whsec_` and a base64 key, as Seam's console shows it. */
export const newSvixSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** The `svix-signature` value: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the secret's bytes. */
export function signSvix(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
