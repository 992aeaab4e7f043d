import { z } from 'zod';
import { asService } from '../db/tx';
import { getProviderSecret } from '../secrets/provider-secrets';
import { getVendor } from './get-vendor';
import type { LockProvider, LockProviderName, LockResult } from './provider';
import { createTtlockProvider } from './ttlock';

/** The provider of a tenant that chose none: `LOCK_VENDOR` (the simulator by default). */
export function defaultProviderName(): LockProviderName {
  const name = process.env.LOCK_VENDOR ?? 'simulator';
  return name === 'seam' || name === 'ttlock' ? name : 'simulator';
}

/** The provider a tenant's locks are driven through: its own choice, else the install's default. */
export async function tenantProviderName(tenantId: string): Promise<LockProviderName> {
  const rows = await asService({ tenantId }, (tx) =>
    tx.tenant.findMany({ where: { id: tenantId }, select: { lockProvider: true } }),
  );
  return rows[0]?.lockProvider ?? defaultProviderName();
}

const notConfigured = (name: LockProviderName): LockResult<never> => ({
  ok: false,
  code: `${name}_not_configured`,
  retryable: false,
});

/** What a tenant's `ttlock` secret holds: its open-platform app and account (JSON). */
export const ZTtlockCredentialsSchema = z
  .object({
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    username: z.string().min(1),
    password: z.string().min(1),
    endpoint: z.url().optional(),
  })
  .strict();

type Factories = {
  seam?: (options: { apiKey: string; endpoint?: string }) => LockProvider;
  ttlock?: (options: z.infer<typeof ZTtlockCredentialsSchema> & { baseUrl: string }) => LockProvider;
};
const factories: Factories = {
  // Seam's SDK loads only when a tenant on Seam needs it (the CLI and most web requests never do).
  seam: undefined,
  ttlock: ({ endpoint: _endpoint, ...options }) => createTtlockProvider({ name: 'ttlock', ...options }),
};

/** For tests: drive a provider's tenants through this client instead of the real adapter. */
export function registerLockProvider<K extends keyof Factories>(name: K, factory: NonNullable<Factories[K]>): void {
  factories[name] = factory;
}

/**
 * The client for one tenant's locks of one provider, with that tenant's credentials (provider
 * secrets, decrypted by the service role). The simulator is the install's own (env credentials).
 * A provider without credentials is a final failure (`seam_not_configured`), never a guess.
 */
export async function lockProviderFor(tenantId: string, name: LockProviderName): Promise<LockResult<LockProvider>> {
  if (name === 'simulator') return { ok: true, data: getVendor() };
  if (name === 'seam') {
    const apiKey = await getProviderSecret({ tenantId, provider: 'seam' });
    if (!apiKey) return notConfigured(name);
    const seam = factories.seam ?? (await import('./seam')).createSeamProvider;
    return { ok: true, data: seam({ apiKey, endpoint: process.env.SEAM_ENDPOINT || undefined }) };
  }
  const secret = await getProviderSecret({ tenantId, provider: 'ttlock' });
  const parsed = ZTtlockCredentialsSchema.safeParse(secret ? safeJson(secret) : null);
  if (!parsed.success || !factories.ttlock) return notConfigured(name);
  const baseUrl = parsed.data.endpoint ?? process.env.TTLOCK_ENDPOINT ?? 'https://euapi.ttlock.com';
  return { ok: true, data: factories.ttlock({ ...parsed.data, baseUrl }) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
