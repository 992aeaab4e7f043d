import { withTenant } from '../db/tx';
import { AppError } from '../errors';

export type ApiKeyView = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

const SELECT = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

function view(k: {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}

/** A tenant's API keys — name, prefix and use, never a secret. */
export async function listApiKeys({ tenantId }: { tenantId: string }): Promise<ApiKeyView[]> {
  const keys = await withTenant({ tenantId }, (tx) =>
    tx.apiKey.findMany({ where: { tenantId }, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] }),
  );
  return keys.map(view);
}

/** One API key of a tenant (`where tenant_id = … and id = …`); `not_found` for any other. */
export async function getApiKey({ tenantId, apiKeyId }: { tenantId: string; apiKeyId: string }): Promise<ApiKeyView> {
  const keys = await withTenant({ tenantId }, (tx) =>
    tx.apiKey.findMany({ where: { tenantId, id: apiKeyId }, select: SELECT }),
  );
  if (keys.length !== 1) throw new AppError('not_found', 'No such API key.');
  return view(keys[0]!);
}
