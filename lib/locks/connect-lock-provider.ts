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
 * Which credential a provider refused, for the words the form shows: Seam's API key, TTLock's client
 * (id and secret: its open platform's 10000/10001) or TTLock's account (username and password).
 */
export function refusedCredential(provider: 'seam' | 'ttlock', code: string): 'key' | 'client' | 'account' {
  if (provider === 'seam') return 'key';
  return code === 'invalid_client' ? 'client' : 'account';
}

const REFUSED_FIELD = { key: 'apiKey', client: 'clientSecret', account: 'password' } as const;

/**
 * Checks a choice's credentials at the provider (a fresh sign-in) and returns what would be stored;
 * writes nothing. The refusals are those of `connectLockProvider`.
 */
async function checkedSecret(
  tenantId: string,
  choice: TLockProviderChoice,
): Promise<{ provider: 'seam' | 'ttlock'; value: string } | null> {
  if (choice.provider === 'simulator') return null;
  const { provider: _provider, ...fields } = choice;
  const value = choice.provider === 'seam' ? choice.apiKey : JSON.stringify(fields);
  const connection =
    choice.provider === 'seam'
      ? await seamConnection(value)
      : ttlockConnection(tenantId, await checkTtlockCredentials(value));
  const health = await connection.provider.checkHealth({ correlationId: `connect:${tenantId}` });
  if (!health.ok) {
    if (credentialsProblem(health.code) === 'refused') {
      const credential = refusedCredential(choice.provider, health.code);
      throw new AppError('invalid_request', 'The lock provider refused these credentials.', {
        problem: 'refused',
        credential,
        issues: [{ path: REFUSED_FIELD[credential] }],
      });
    }
    throw new AppError('unavailable', 'The lock provider could not be reached.', {
      providerCode: 'provider_unreachable',
    });
  }
  return { provider: choice.provider, value };
}

/**
 * "Test connection": the credentials checked at the provider exactly as saving would check them,
 * and nothing stored or audited — the same refusals as `connectLockProvider`.
 */
export async function testLockProvider(input: {
  tenantId: string;
  choice: TLockProviderChoice;
}): Promise<{ provider: LockProviderName; checked: boolean }> {
  const secret = await checkedSecret(input.tenantId, input.choice);
  return { provider: input.choice.provider, checked: secret !== null };
}

/**
 * A manager's choice of lock provider, with its credentials: checked first — TTLock's shape and
 * endpoint (a public https address, lib/secrets/ttlock-credentials.ts), then a fresh sign-in at the
 * provider with them — and only then stored (encrypted, `secret.set`) and made the tenant's
 * provider (`lock_provider.set`), in one transaction. Wrong credentials → `invalid_request` with
 * `problem: 'refused'` and the `credential` refused (`key`, `client`, `account`); a provider that cannot be reached → `unavailable` with
 * `providerCode: 'provider_unreachable'`, whatever the reason. Nothing is written on a refusal,
 * and no secret ever comes back.
 */
export async function connectLockProvider(input: {
  tenantId: string;
  choice: TLockProviderChoice;
  actor: Actor;
}): Promise<{ provider: LockProviderName }> {
  const { tenantId, choice, actor } = input;
  const secret = await checkedSecret(tenantId, choice);
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
