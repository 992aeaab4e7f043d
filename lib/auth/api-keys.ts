import { actorColumns } from '../audit/actor';
import { createHash, randomBytes } from 'node:crypto';
import { asService } from '../db/tx';
import { AppError } from '../errors';

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
    await tx.auditEvent.create({
      data: {
        tenantId: input.tenantId,
        actorType: input.actor.type,
        actorId: input.actor.id,
        actorLabel: input.actor.label,
        action: 'api_key.created',
        subjectType: 'api_key',
        subjectId: row.id,
        metadata: { name: input.name, prefix: generated.prefix },
      },
    });
    return { id: row.id, key: generated.key, prefix: generated.prefix };
  });
}

/**
 * Resolves a presented key to its tenant; `null` for unknown or revoked keys. Touches
 * `last_used_at` at most once a minute, so a busy integration does not write on every call.
 */
export async function authenticateApiKey(presented: string): Promise<ApiKeyPrincipal | null> {
  if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return null;
  const secretHash = hashApiKey(presented);
  return asService(async (tx) => {
    // The global hash finds the tenant (api_key_secrets, docs/SCALING.md); the key is read within it.
    const found = await tx.apiKeySecret.findMany({ where: { secretHash } });
    if (found.length !== 1) return null;
    const { tenantId, apiKeyId } = found[0]!;
    const rows = await tx.apiKey.findMany({ where: { tenantId, id: apiKeyId, secretHash, revokedAt: null } });
    if (rows.length !== 1) return null;
    const row = rows[0]!;
    await tx.$executeRaw`update api_keys set last_used_at = now()
      where tenant_id = ${tenantId}::uuid and id = ${row.id}::uuid
        and (last_used_at is null or last_used_at < now() - interval '1 minute')`;
    return { apiKeyId: row.id, tenantId: row.tenantId, name: row.name };
  });
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
    await tx.auditEvent.create({
      data: {
        tenantId,
        ...actorColumns(actor),
        action: 'api_key.revoked',
        subjectType: 'api_key',
        subjectId: input.apiKeyId,
      },
    });
  });
}
