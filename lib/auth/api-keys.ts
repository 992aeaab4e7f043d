import { createHash, randomBytes } from 'node:crypto';
import { asService, serviceStatement, statement } from '../db/tx';
import { AppError } from '../errors';
import { writeAuditEvent } from '../audit/write-audit-event';

const KEY_PREFIX = 'uok_';

export type ApiKeyPrincipal = { apiKeyId: string; tenantId: string; name: string };

export function hashApiKey(key: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(key).digest());
}

/** A new API key: `uok_` + 8 visible characters + 40 secret ones. Only its hash is stored. */
export function generateApiKey(): { key: string; prefix: string; secretHash: Uint8Array<ArrayBuffer> } {
  const body = randomBytes(36).toString('base64url').replace(/[-_]/g, 'x');
  const key = `${KEY_PREFIX}${body}`;
  return { key, prefix: key.slice(0, KEY_PREFIX.length + 8), secretHash: hashApiKey(key) };
}

/** Creates an API key for a tenant, audited `api_key.created`; the secret is returned once and never stored. */
export async function createApiKey(input: {
  tenantId: string;
  name: string;
  actor: { type: 'user' | 'system'; id: string | null; label: string };
}): Promise<{ id: string; key: string; prefix: string }> {
  const generated = generateApiKey();
  return asService({ tenantId: input.tenantId }, async (tx) => {
    const row = await tx.apiKey.create({
      data: {
        tenantId: input.tenantId,
        name: input.name,
        prefix: generated.prefix,
        secretHash: generated.secretHash,
        createdByUserId: input.actor.type === 'user' ? input.actor.id : null,
      },
    });
    await writeAuditEvent(tx, {
      tenantId: input.tenantId,
      actor: input.actor,
      action: 'api_key.created',
      subject: { type: 'api_key', id: row.id },
      metadata: { name: input.name, prefix: generated.prefix },
    });
    return { id: row.id, key: generated.key, prefix: generated.prefix };
  });
}

/** Whether a presented string can be a key at all: anything else is refused without a query. */
export function looksLikeApiKey(presented: string): boolean {
  return presented.startsWith(KEY_PREFIX) && presented.length <= 200;
}

/**
 * The one place a key's hash becomes a key (SQL `app_api_key_by_hash`): id, tenant and name of an
 * unrevoked key, else `null`. One prepared statement, read only.
 */
export async function apiKeyByHash(secretHash: Uint8Array): Promise<ApiKeyPrincipal | null> {
  const rows = await serviceStatement(
    statement<{ api_key_id: string; tenant_id: string; name: string }>(
      'select api_key_id, tenant_id, name from app_api_key_by_hash($1)',
    ),
    [Buffer.from(secretHash)],
  );
  if (rows.length !== 1) return null;
  return { apiKeyId: rows[0]!.api_key_id, tenantId: rows[0]!.tenant_id, name: rows[0]!.name };
}

/** Sets a key's `last_used_at`, unless it was set less than a minute ago. */
export async function touchApiKey(key: { tenantId: string; apiKeyId: string }): Promise<void> {
  await serviceStatement(
    statement(`update api_keys set last_used_at = now()
      where tenant_id = $1::uuid and id = $2::uuid and (last_used_at is null or last_used_at < now() - interval '1 minute')`),
    [key.tenantId, key.apiKeyId],
  );
}

/**
 * Resolves a presented key to its tenant; `null` for unknown or revoked keys. Touches
 * `last_used_at` at most once a minute, so a busy integration does not write on every call.
 * Uncached: the API's requests go through `ApiKeyCache` (lib/auth/api-key-cache.ts).
 */
export async function authenticateApiKey(presented: string): Promise<ApiKeyPrincipal | null> {
  if (!looksLikeApiKey(presented)) return null;
  const principal = await apiKeyByHash(hashApiKey(presented));
  if (principal) await touchApiKey(principal);
  return principal;
}

/** Revokes one of a tenant's API keys (it stops working at once), audited `api_key.revoked`. */
export async function revokeApiKey(input: {
  tenantId: string;
  apiKeyId: string;
  actor: { type: 'user' | 'system'; id: string | null; label: string };
}): Promise<void> {
  const { tenantId, actor } = input;
  await asService({ tenantId }, async (tx) => {
    const updated = await tx.apiKey.updateMany({
      where: { tenantId, id: input.apiKeyId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (updated.count === 0) {
      const exists = await tx.apiKey.count({ where: { tenantId, id: input.apiKeyId } });
      if (exists === 0) throw new AppError('not_found', 'No such API key.');
      return;
    }
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'api_key.revoked',
      subject: { type: 'api_key', id: input.apiKeyId },
    });
  });
}
