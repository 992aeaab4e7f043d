import { AppError } from '../errors';
import { verifyCalSignature } from './cal/verify';
import { calDedupeKey, ZCalBodySchema } from './cal/handlers';
import { parseCalendlySignature, verifyCalendlySignature } from './calendly/verify';
import { calendlyDedupeKey, ZCalendlyBodySchema } from './calendly/handlers';
import { storeWebhookEvent } from './inbox';
import { invalidSignature, parseVerifiedBody, verifyForTenant, type TenantSignedProvider } from './verify-for-tenant';

const CALENDLY: TenantSignedProvider = {
  secret: 'calendly',
  providerLabel: 'Calendly',
  secretLabel: 'Calendly signing key',
};
const CAL: TenantSignedProvider = { secret: 'cal', providerLabel: 'Cal.com', secretLabel: 'Cal.com webhook secret' };

/**
 * Receives one Calendly delivery for a tenant: verifies `Calendly-Webhook-Signature` over the raw
 * bytes with the tenant's signing key (180 s tolerance), stores it once per (invitee URI, event)
 * and queues its processing. A bad signature or an unknown tenant stores nothing.
 */
export async function receiveCalendlyWebhook(input: {
  tenantIdParam: string;
  raw: Uint8Array;
  signature: string | null;
}): Promise<{ duplicate: boolean }> {
  if (!parseCalendlySignature(input.signature))
    throw invalidSignature('The Calendly-Webhook-Signature header is missing or malformed.');
  // A stale timestamp fails whatever the key: refuse it before touching any secret.
  if (verifyCalendlySignature({ rawBody: input.raw, header: input.signature, signingKey: 'x' }) === 'stale') {
    throw invalidSignature('The Calendly signature timestamp is outside the 180 s tolerance.');
  }
  const tenantId = await verifyForTenant(
    input.tenantIdParam,
    CALENDLY,
    (signingKey) => verifyCalendlySignature({ rawBody: input.raw, header: input.signature, signingKey }) === 'ok',
  );
  const parsed = ZCalendlyBodySchema.safeParse(await parseVerifiedBody(input.raw, { provider: 'calendly', tenantId }));
  if (!parsed.success) throw new AppError('invalid_request', 'The body is not a Calendly invitee event.');
  const body = parsed.data;
  const createdAt = new Date(body.created_at);
  return storeWebhookEvent({
    provider: 'calendly',
    dedupeKey: calendlyDedupeKey(body.payload.uri, body.event),
    type: body.event,
    tenantId,
    payload: body,
    providerCreatedAt: Number.isNaN(createdAt.getTime()) ? null : createdAt,
  });
}

/**
 * Receives one Cal.com delivery for a tenant: verifies `X-Cal-Signature-256` (hex HMAC-SHA256 of the
 * raw body) with the tenant's secret, stores it once per (uid, trigger) and queues its processing.
 */
export async function receiveCalWebhook(input: {
  tenantIdParam: string;
  raw: Uint8Array;
  signature: string | null;
}): Promise<{ duplicate: boolean }> {
  if (!input.signature || !/^[0-9a-fA-F]{64}$/.test(input.signature.trim()))
    throw invalidSignature('The X-Cal-Signature-256 header is missing or malformed.');
  const tenantId = await verifyForTenant(
    input.tenantIdParam,
    CAL,
    (secret) => verifyCalSignature({ rawBody: input.raw, header: input.signature, secret }) === 'ok',
  );
  const parsed = ZCalBodySchema.safeParse(await parseVerifiedBody(input.raw, { provider: 'cal', tenantId }));
  if (!parsed.success) throw new AppError('invalid_request', 'The body is not a Cal.com booking event.');
  const body = parsed.data;
  const createdAt = new Date(body.createdAt);
  return storeWebhookEvent({
    provider: 'cal',
    dedupeKey: calDedupeKey(body.payload.uid, body.triggerEvent),
    type: body.triggerEvent,
    tenantId,
    payload: body,
    providerCreatedAt: Number.isNaN(createdAt.getTime()) ? null : createdAt,
  });
}
