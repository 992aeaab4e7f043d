import { storeWebhookEvent } from '../inbox';
import { invalidSignature, parseVerifiedBody, verifyForTenant, type TenantSignedProvider } from '../verify-for-tenant';
import { isStaleSvixTimestamp, parseSvixHeaders, SEAM_TOLERANCE_SECONDS, verifySeamSignature } from './verify';

const SEAM: TenantSignedProvider = {
  secret: 'seam_webhook',
  providerLabel: 'Seam',
  secretLabel: 'Seam webhook secret',
};

/**
 * Receives one Seam delivery for a tenant: verifies the Svix signature over the raw bytes with the
 * tenant's `seam_webhook` secret (Seam's own verifier, 5 minutes' tolerance), stores it once per
 * tenant and Svix message id, and queues its processing. A bad signature or an unknown tenant stores
 * nothing. Any JSON is stored: an event we do not handle, or cannot parse, is ignored when processed.
 */
export async function receiveSeamWebhook(input: {
  tenantIdParam: string;
  raw: Uint8Array;
  headers: { id: string | null; timestamp: string | null; signature: string | null };
}): Promise<{ duplicate: boolean }> {
  const svix = parseSvixHeaders(input.headers);
  if (!svix) throw invalidSignature('The svix-id, svix-timestamp or svix-signature header is missing or malformed.');
  // A stale timestamp fails whatever the secret: refuse it before touching any secret.
  if (isStaleSvixTimestamp(svix.timestamp))
    throw invalidSignature(`The Seam signature timestamp is outside the ${SEAM_TOLERANCE_SECONDS} s tolerance.`);
  let body: string;
  try {
    body = new TextDecoder('utf-8', { fatal: true }).decode(input.raw);
  } catch {
    // Svix signs text: bytes that are not UTF-8 cannot carry a valid signature.
    throw invalidSignature('The Seam signature does not match.');
  }
  const tenantId = await verifyForTenant(
    input.tenantIdParam,
    SEAM,
    (secret) => verifySeamSignature({ body, headers: svix, secret }) === 'ok',
  );
  const payload = await parseVerifiedBody(input.raw, { provider: 'seam', tenantId });
  const record = payload && typeof payload === 'object' && !Array.isArray(payload) ? payload : {};
  const type = 'event_type' in record && typeof record.event_type === 'string' ? record.event_type : '';
  const createdAt =
    'created_at' in record && typeof record.created_at === 'string' ? new Date(record.created_at) : null;
  return storeWebhookEvent({
    provider: 'seam',
    dedupeKey: svix.id,
    type: /^[a-z0-9_.]{1,100}$/.test(type) ? type : 'unknown',
    tenantId,
    payload,
    providerCreatedAt: createdAt && !Number.isNaN(createdAt.getTime()) ? createdAt : null,
  });
}
