import { z } from 'zod';
import { asService } from '../db/tx';
import { getProviderSecret } from '../secrets/provider-secrets';
import { getVendor } from './get-vendor';
import { createSeamProvider } from './seam';
import type { LockVendor } from './port';
import { clientRefOf, type LockProvider, type LockProviderName, type LockResult } from './provider';

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
const factories: Factories = { seam: createSeamProvider };

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
  if (name === 'simulator') return { ok: true, data: fromLegacy(getVendor()) };
  if (name === 'seam') {
    const apiKey = await getProviderSecret({ tenantId, provider: 'seam' });
    if (!apiKey || !factories.seam) return notConfigured(name);
    return { ok: true, data: factories.seam({ apiKey, endpoint: process.env.SEAM_ENDPOINT || undefined }) };
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

// TEMPORARY until the TTLock adapter lands: the old vendor client behind the new port.
function fromLegacy(vendor: LockVendor): LockProvider {
  return {
    name: 'simulator',
    listDevices: async () => ({ ok: true, data: [] }),
    async programCode(input) {
      const r = await vendor.programCode({ ...input, deviceRef: input.deviceId });
      return r.ok ? { ok: true, data: { codeId: r.data.vendorKeyId, state: 'set' } } : r;
    },
    async removeCode(input) {
      const r = await vendor.removeCode({ ...input, deviceRef: input.deviceId, vendorKeyId: input.codeId });
      return r.ok ? { ok: true, data: { state: 'absent' } } : r;
    },
    async getCode(input) {
      const r = await vendor.codeStatus({ ...input, deviceRef: input.deviceId, vendorKeyId: input.codeId });
      if (!r.ok) return r;
      if (r.data.state === 'absent') return { ok: true, data: null };
      return {
        ok: true,
        data: { codeId: input.codeId, clientRef: null, state: 'set', error: null, validFrom: null, expiresAt: null },
      };
    },
    async listCodes() {
      return { ok: true, data: [] };
    },
    checkHealth: (ctx) => vendor.checkHealth(ctx),
  };
}
void clientRefOf;
