import { z } from 'zod';
import { asService } from '../db/tx';
import { AppError } from '../errors';
import { getProviderSecret } from '../secrets/provider-secrets';
import { verifyCalSignature } from './cal/verify';
import { calDedupeKey, ZCalBodySchema } from './cal/handlers';
import { parseCalendlySignature, verifyCalendlySignature } from './calendly/verify';
import { calendlyDedupeKey, ZCalendlyBodySchema } from './calendly/handlers';
import { storeWebhookEvent } from './inbox';

const invalidSignature = (message: string) => new AppError('invalid_signature', message);

/** The tenant named in the URL, or 404 (nothing stored) when there is none. */
async function knownTenant(tenantIdParam: string): Promise<string> {
  const parsed = z.uuid().safeParse(tenantIdParam);
  if (!parsed.success) throw new AppError('not_found', 'Unknown tenant.');
  const count = await asService((tx) => tx.tenant.count({ where: { id: parsed.data } }));
  if (count !== 1) throw new AppError('not_found', 'Unknown tenant.');
  return parsed.data;
}

function parseJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw new AppError('invalid_request', 'The body is not valid JSON.');
  }
}

/**
 * Receives one Calendly delivery for a tenant: verifies `Calendly-Webhook-Signature` over the raw
 * bytes with the tenant's signing key (180 s tolerance), stores it once per (invitee URI, event)
 * and queues its processing. A bad signature or an unknown tenant stores nothing.
 */
export async function receiveCalendlyWebhook(input: { tenantIdParam: string; raw: Uint8Array; signature: string | null }): Promise<{ duplicate: boolean }> {
  if (!parseCalendlySignature(input.signature)) throw invalidSignature('The Calendly-Webhook-Signature header is missing or malformed.');
  const tenantId = await knownTenant(input.tenantIdParam);
  const signingKey = await getProviderSecret({ tenantId, provider: 'calendly' });
  if (!signingKey) throw invalidSignature('No Calendly signing key is configured for this tenant.');
  const verdict = verifyCalendlySignature({ rawBody: input.raw, header: input.signature, signingKey });
  if (verdict !== 'ok') throw invalidSignature(verdict === 'stale' ? 'The Calendly signature timestamp is outside the 180 s tolerance.' : 'The Calendly signature does not match.');
  const parsed = ZCalendlyBodySchema.safeParse(parseJson(input.raw));
  if (!parsed.success) throw new AppError('invalid_request', 'The body is not a Calendly invitee event.');
  const body = parsed.data;
  const createdAt = new Date(body.created_at);
  return storeWebhookEvent({
    provider: 'calendly', dedupeKey: calendlyDedupeKey(body.payload.uri, body.event), type: body.event, tenantId,
    payload: body, providerCreatedAt: Number.isNaN(createdAt.getTime()) ? null : createdAt,
  });
}

/**
 * Receives one Cal.com delivery for a tenant: verifies `X-Cal-Signature-256` (hex HMAC-SHA256 of the
 * raw body) with the tenant's secret, stores it once per (uid, trigger) and queues its processing.
 */
export async function receiveCalWebhook(input: { tenantIdParam: string; raw: Uint8Array; signature: string | null }): Promise<{ duplicate: boolean }> {
  if (!input.signature || !/^[0-9a-fA-F]{64}$/.test(input.signature.trim())) throw invalidSignature('The X-Cal-Signature-256 header is missing or malformed.');
  const tenantId = await knownTenant(input.tenantIdParam);
  const secret = await getProviderSecret({ tenantId, provider: 'cal' });
  if (!secret) throw invalidSignature('No Cal.com webhook secret is configured for this tenant.');
  if (verifyCalSignature({ rawBody: input.raw, header: input.signature, secret }) !== 'ok') throw invalidSignature('The Cal.com signature does not match.');
  const parsed = ZCalBodySchema.safeParse(parseJson(input.raw));
  if (!parsed.success) throw new AppError('invalid_request', 'The body is not a Cal.com booking event.');
  const body = parsed.data;
  const createdAt = new Date(body.createdAt);
  return storeWebhookEvent({
    provider: 'cal', dedupeKey: calDedupeKey(body.payload.uid, body.triggerEvent), type: body.triggerEvent, tenantId,
    payload: body, providerCreatedAt: Number.isNaN(createdAt.getTime()) ? null : createdAt,
  });
}
