import { z } from 'zod';
import { isTooDeep, parseJsonBytes } from '../http/body';
import type { SecretProvider, WebhookProvider } from '../db/generated/enums';
import { AppError } from '../errors';
import { rereadAfterMismatch, verificationSecret } from '../secrets/verification-secrets';
import { storeUnparsedWebhookEvent } from './inbox';

export const invalidSignature = (message: string) => new AppError('invalid_signature', message);

/** How a tenant-signed provider names itself and its secret in error messages. */
export type TenantSignedProvider = { secret: SecretProvider; providerLabel: string; secretLabel: string };

/**
 * Verifies a delivery for the tenant named in the URL with that tenant's secret (cached per process,
 * see verification-secrets.ts): 404 for a tenant that does not exist, 400 for a tenant without the
 * secret or a signature that does not match it. Returns the tenant id.
 */
export async function verifyForTenant(
  tenantIdParam: string,
  provider: TenantSignedProvider,
  verify: (secret: string) => boolean,
): Promise<string> {
  const parsed = z.uuid().safeParse(tenantIdParam);
  if (!parsed.success) throw new AppError('not_found', 'Unknown tenant.');
  const tenantId = parsed.data;
  const { tenantExists, secret } = await verificationSecret(tenantId, provider.secret);
  if (!tenantExists) throw new AppError('not_found', 'Unknown tenant.');
  if (secret && verify(secret)) return tenantId;
  // The secret may have been changed by another process a moment ago: read it again (bounded).
  const reread = await rereadAfterMismatch(tenantId, provider.secret);
  if (reread && reread !== secret && verify(reread)) return tenantId;
  if (!secret && !reread) throw invalidSignature(`No ${provider.secretLabel} is configured for this tenant.`);
  throw invalidSignature(`The ${provider.providerLabel} signature does not match.`);
}

/**
 * A verified body as JSON: 400 `invalid_request` for anything that is not UTF-8 JSON. A body nesting
 * deeper than the API allows (`MAX_JSON_DEPTH`) is refused the same way and kept in the inbox as a
 * failed event (`too_deep`), never a 500 that loses it.
 */
export async function parseVerifiedBody(
  raw: Uint8Array,
  inbox: { provider: WebhookProvider; tenantId: string | null },
): Promise<unknown> {
  try {
    return parseJsonBytes(raw);
  } catch (error) {
    if (isTooDeep(error)) await storeUnparsedWebhookEvent({ ...inbox, raw, reason: 'too_deep' });
    throw error;
  }
}
