import { SeamWebhook, SeamWebhookVerificationError } from '@seamapi/webhook';
import { logger } from '../../log/logger';

/** Svix's tolerance, which `@seamapi/webhook` applies: a timestamp more than 5 minutes off either way fails. */
export const SEAM_TOLERANCE_SECONDS = 300;

export type SvixHeaders = { id: string; timestamp: number; signature: string };

const SVIX_ID = /^[A-Za-z0-9_.:-]{1,255}$/;
const SVIX_TIMESTAMP = /^\d{1,12}$/;
const SVIX_SIGNATURE = /^v\d+,[A-Za-z0-9+/=_-]{1,512}( v\d+,[A-Za-z0-9+/=_-]{1,512}){0,9}$/;

/**
 * The Svix headers when each has its shape (an id, whole seconds, one to ten space-separated
 * `v<n>,<base64>` signatures), else null. The id is the delivery's identity, stable across retries.
 */
export function parseSvixHeaders(headers: {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
}): SvixHeaders | null {
  const id = headers.id?.trim() ?? '';
  const timestamp = headers.timestamp?.trim() ?? '';
  const signature = headers.signature?.trim() ?? '';
  if (!SVIX_ID.test(id) || !SVIX_TIMESTAMP.test(timestamp) || !SVIX_SIGNATURE.test(signature)) return null;
  return { id, timestamp: Number(timestamp), signature };
}

/** Whether a Svix timestamp is outside the tolerance: such a delivery fails whatever the secret. */
export function isStaleSvixTimestamp(timestamp: number, now = Date.now()): boolean {
  return Math.abs(Math.floor(now / 1000) - timestamp) > SEAM_TOLERANCE_SECONDS;
}

/**
 * Verifies one Seam delivery with Seam's own verifier (`SeamWebhook(secret).verify`) over the raw
 * body: `ok` only when a signature matches the secret within the tolerance. A secret that is not a
 * Svix secret (`whsec_` + base64) verifies nothing.
 */
export function verifySeamSignature(input: { body: string; headers: SvixHeaders; secret: string }): 'ok' | 'mismatch' {
  let webhook: SeamWebhook;
  try {
    webhook = new SeamWebhook(input.secret);
  } catch {
    logger.warn({ provider: 'seam' }, 'the tenant’s Seam webhook secret is not a Svix secret (whsec_…)');
    return 'mismatch';
  }
  try {
    webhook.verify(input.body, {
      'svix-id': input.headers.id,
      'svix-timestamp': String(input.headers.timestamp),
      'svix-signature': input.headers.signature,
    });
    return 'ok';
  } catch (error) {
    // The verifier parses the body after the signature matched: a signed body that is not JSON is
    // still genuinely signed, and is refused later as an invalid request.
    if (error instanceof SeamWebhookVerificationError) return 'mismatch';
    return error instanceof SyntaxError ? 'ok' : 'mismatch';
  }
}
