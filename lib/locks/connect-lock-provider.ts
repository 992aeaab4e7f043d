import type { Actor } from '../audit/actor';
import { asService } from '../db/tx';
import { AppError } from '../errors';
import { storeProviderSecret } from '../secrets/provider-secrets';
import { invalidateTenant } from '../secrets/verification-secrets';
import type { LockProviderName } from './provider';
import { writeLockProvider } from './locks';
import { seamConnection, ttlockConnection } from './tenant-provider';
import { checkTtlockCredentials, type TTtlockCredentials } from '../secrets/ttlock-credentials';

/** What a manager chooses: the install's own locks (assigned by the operator), or their own account. */
export type TLockProviderChoice =
  { provider: 'simulator' } | { provider: 'seam'; apiKey: string } | ({ provider: 'ttlock' } & TTtlockCredentials);

// Failure codes that mean "these credentials are wrong" (lib/locks/classify.ts, the Seam adapter);
// every other failure reads as "could not reach the provider", without its transport detail.
const REFUSED = new Set([
  'invalid_client',
  'invalid_credentials',
  'refresh_token_invalid',
  'token_invalid',
  'permission_denied',
  'unauthorized',
  'account_disconnected',
  'http_401',
  'http_403',
]);

/** Why a provider did not take credentials: `refused` (wrong ones) or `unreachable` (anything else). */
export function credentialsProblem(code: string): 'refused' | 'unreachable' {
  return REFUSED.has(code) ? 'refused' : 'unreachable';
}

/**
 * A manager's choice of lock provider, with its credentials: checked first — TTLock's shape and
 * endpoint (a public https address, lib/secrets/ttlock-credentials.ts), then a fresh sign-in at the
 * provider with them — and only then stored (encrypted, `secret.set`) and made the tenant's
 * provider (`lock_provider.set`), in one transaction. Wrong credentials → `invalid_request` with
 * `problem: 'refused'`; a provider that cannot be reached → `unavailable` with
 * `providerCode: 'provider_unreachable'`, whatever the reason. Nothing is written on a refusal,
 * and no secret ever comes back.
 */
export async function connectLockProvider(input: {
  tenantId: string;
  choice: TLockProviderChoice;
  actor: Actor;
}): Promise<{ provider: LockProviderName }> {
  const { tenantId, choice, actor } = input;
  let secret: { provider: 'seam' | 'ttlock'; value: string } | null = null;
  if (choice.provider !== 'simulator') {
    const { provider: _provider, ...fields } = choice;
    const value = choice.provider === 'seam' ? choice.apiKey : JSON.stringify(fields);
    const connection =
      choice.provider === 'seam'
        ? await seamConnection(value)
        : ttlockConnection(tenantId, await checkTtlockCredentials(value));
    const health = await connection.provider.checkHealth({ correlationId: `connect:${tenantId}` });
    if (!health.ok) {
      if (credentialsProblem(health.code) === 'refused')
        throw new AppError('invalid_request', 'The lock provider refused these credentials.', {
          problem: 'refused',
          issues: [{ path: choice.provider === 'seam' ? 'apiKey' : 'clientSecret' }],
        });
      throw new AppError('unavailable', 'The lock provider could not be reached.', {
        providerCode: 'provider_unreachable',
      });
    }
    secret = { provider: choice.provider, value };
  }
  await asService({ tenantId }, async (tx) => {
    if (secret) await storeProviderSecret(tx, { tenantId, provider: secret.provider, value: secret.value, actor });
    await writeLockProvider(tx, {
      tenantId,
      provider: choice.provider,
      actor,
      metadata: { credentialsChecked: secret !== null },
    });
  });
  if (secret) invalidateTenant(tenantId);
  return { provider: choice.provider };
}
