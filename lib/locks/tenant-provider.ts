import { asService } from '../db/tx';
import { outboundFetch } from '../http/outbound-fetch';
import { getProviderSecret } from '../secrets/provider-secrets';
import { installLockProvider } from './install-provider';
import type { LockProvider, LockProviderName, LockResult } from './provider';
import { createTtlockProvider } from './ttlock';
import { INSTALL_ACCOUNT, seamAccount } from '../secrets/lock-account';
import {
  readTtlockCredentials,
  ttlockAccount,
  ttlockBaseUrl,
  type TTtlockCredentials,
} from '../secrets/ttlock-credentials';

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

type Factories = {
  seam?: (options: { apiKey: string; endpoint?: string }) => LockProvider;
  ttlock?: (options: TTtlockCredentials & { baseUrl: string; cacheScope: string }) => LockProvider;
};
const factories: Factories = {
  // Seam's SDK loads only when a tenant on Seam needs it (the CLI and most web requests never do).
  seam: undefined,
  // The endpoint may be the tenant's own: public https only, no redirects (lib/http/outbound-fetch.ts).
  ttlock: ({ endpoint: _endpoint, ...options }) =>
    createTtlockProvider({
      name: 'ttlock',
      ...options,
      fetch: outboundFetch(),
    }),
};

/** For tests: drive a provider's tenants through this client instead of the real adapter. */
export function registerLockProvider<K extends keyof Factories>(name: K, factory: NonNullable<Factories[K]>): void {
  factories[name] = factory;
}

/**
 * A client for one tenant's locks of one provider and the account it reaches (`locks.account`):
 * the install's own (`install`, the simulator at LOCK_VENDOR_URL) or the tenant's own credentials
 * (provider secrets, decrypted by the service role). A provider without credentials is a final
 * failure (`seam_not_configured`), never a guess.
 */
export async function lockConnectionFor(
  tenantId: string,
  name: LockProviderName,
): Promise<LockResult<{ provider: LockProvider; account: string }>> {
  if (name === 'simulator') return { ok: true, data: { provider: installLockProvider(), account: INSTALL_ACCOUNT } };
  if (name === 'seam') {
    const apiKey = await getProviderSecret({ tenantId, provider: 'seam' });
    if (!apiKey) return notConfigured(name);
    return { ok: true, data: await seamConnection(apiKey) };
  }
  const credentials = readTtlockCredentials(await getProviderSecret({ tenantId, provider: 'ttlock' }));
  if (!credentials || !factories.ttlock) return notConfigured(name);
  return { ok: true, data: ttlockConnection(tenantId, credentials) };
}

/**
 * The account a tenant's devices of one provider are reached through (`locks.account`), without
 * making a client: `install`, or the identity of the tenant's own credentials; null without them.
 */
export async function lockAccountFor(tenantId: string, name: LockProviderName): Promise<string | null> {
  if (name === 'simulator') return INSTALL_ACCOUNT;
  if (name === 'seam') {
    const apiKey = await getProviderSecret({ tenantId, provider: 'seam' });
    return apiKey ? seamAccount(apiKey) : null;
  }
  const credentials = readTtlockCredentials(await getProviderSecret({ tenantId, provider: 'ttlock' }));
  return credentials ? ttlockAccount(credentials) : null;
}

/** A Seam client on this API key (Seam's API at SEAM_ENDPOINT, an install-wide setting). */
export async function seamConnection(apiKey: string) {
  const seam = factories.seam ?? (await import('./seam')).createSeamProvider;
  return { provider: seam({ apiKey, endpoint: process.env.SEAM_ENDPOINT || undefined }), account: seamAccount(apiKey) };
}

/** A TTLock client on these credentials for one tenant (its tokens are the tenant's alone). */
export function ttlockConnection(tenantId: string, credentials: TTtlockCredentials) {
  const provider = factories.ttlock!({
    ...credentials,
    baseUrl: ttlockBaseUrl(credentials),
    cacheScope: `tenant:${tenantId}`,
  });
  return { provider, account: ttlockAccount(credentials) };
}

/** The client for one tenant's locks of one provider, with that tenant's credentials (see lockConnectionFor). */
export async function lockProviderFor(tenantId: string, name: LockProviderName): Promise<LockResult<LockProvider>> {
  const connection = await lockConnectionFor(tenantId, name);
  return connection.ok ? { ok: true, data: connection.data.provider } : connection;
}
