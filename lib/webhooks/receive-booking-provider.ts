import { AppError } from '../errors';
import { readAcuityCredentials } from '../secrets/acuity-credentials';
import { parseAcuitySignature, verifyAcuitySignature } from './acuity/verify';
import { acuityDedupeKey, ZAcuityFormSchema } from './acuity/handlers';
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
const ACUITY: TenantSignedProvider = { secret: 'acuity', providerLabel: 'Acuity', secretLabel: 'Acuity API key' };

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

/**
 * A verified form body (`application/x-www-form-urlencoded`, UTF-8) as its fields; a field given twice
 * is ambiguous and refused, like anything that is not such a body.
 */
function parseVerifiedForm(raw: Uint8Array): Record<string, string> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new AppError('invalid_request', 'The body is not UTF-8.');
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, key))
      throw new AppError('invalid_request', `The field ${key.slice(0, 40)} is given twice.`);
    fields[key] = value;
  }
  return fields;
}

/**
 * Receives one Acuity Scheduling delivery for a tenant: verifies `X-Acuity-Signature` (base64
 * HMAC-SHA256 of the raw form body) with the API key of the tenant's `acuity` credentials, stores it
 * once per (appointment id, action) with its arrival time, and queues its processing (which reads
 * the appointment from Acuity's API). A bad signature or an unknown tenant stores nothing.
 */
export async function receiveAcuityWebhook(input: {
  tenantIdParam: string;
  raw: Uint8Array;
  signature: string | null;
}): Promise<{ duplicate: boolean }> {
  if (!parseAcuitySignature(input.signature))
    throw invalidSignature('The X-Acuity-Signature header is missing or malformed.');
  const tenantId = await verifyForTenant(input.tenantIdParam, ACUITY, (secret) => {
    const credentials = readAcuityCredentials(secret);
    return (
      credentials !== null &&
      verifyAcuitySignature({ rawBody: input.raw, header: input.signature, apiKey: credentials.apiKey }) === 'ok'
    );
  });
  const parsed = ZAcuityFormSchema.safeParse(parseVerifiedForm(input.raw));
  if (!parsed.success) throw new AppError('invalid_request', 'The body is not an Acuity appointment notification.');
  const form = parsed.data;
  return storeWebhookEvent({
    provider: 'acuity',
    dedupeKey: acuityDedupeKey(form.id, form.action),
    type: form.action,
    tenantId,
    payload: form,
    // Acuity sends no time: the arrival stands for it (a cancel that arrives after an appointment was
    // read refuses that read's create — lib/webhooks/acuity/handlers.ts).
    providerCreatedAt: new Date(),
  });
}
