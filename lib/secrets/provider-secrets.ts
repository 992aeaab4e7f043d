import type { Actor } from '../audit/actor';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement, type Tx, withTenant } from '../db/tx';
import { seamAccount } from './lock-account';
import { checkAcuityCredentials } from './acuity-credentials';
import { checkTtlockCredentials, readTtlockCredentials, ttlockAccount } from './ttlock-credentials';
import type { SecretProvider } from '../db/generated/enums';
import { invalidateTenant } from './verification-secrets';
import { currentDataKey, currentKeyring } from './data-key';
import { writeAuditEvent } from '../audit/write-audit-event';

export const SECRET_PROVIDERS = [
  'calendly',
  'cal',
  'acuity',
  'seam',
  'seam_webhook',
  'ttlock',
  'lock_vendor',
] as const satisfies readonly SecretProvider[];

/**
 * Stores a tenant's provider secret encrypted with the current data key (pgcrypto), audited
 * `secret.set`. TTLock credentials are checked first (lib/secrets/ttlock-credentials.ts: their shape,
 * and an endpoint that is a public https address); a refused value writes nothing.
 */
export async function setProviderSecret(input: {
  tenantId: string;
  provider: SecretProvider;
  value: string;
  actor: Actor;
}): Promise<{ keyVersion: number }> {
  if (input.provider === 'ttlock') await checkTtlockCredentials(input.value);
  if (input.provider === 'acuity') checkAcuityCredentials(input.value);
  const done = await asService({ tenantId: input.tenantId }, (tx) => storeProviderSecret(tx, input));
  invalidateTenant(input.tenantId);
  return done;
}

/**
 * Writes a checked secret inside the caller's transaction (scoped to the tenant), audited
 * `secret.set`; the caller calls `invalidateTenant` once it committed. New Seam or TTLock
 * credentials move the tenant's locks of that provider to the account they reach
 * (`app_rekey_lock_account`): a lock whose device another tenant holds there is released.
 */
export async function storeProviderSecret(
  tx: Tx,
  input: { tenantId: string; provider: SecretProvider; value: string; actor: Actor },
): Promise<{ keyVersion: number }> {
  const { key, version } = currentDataKey();
  const { tenantId, actor } = input;
  // Every process drops its cached copy on the database's notice; this one at once, too.
  await runInTransaction(tx, [
    effectStatement(
      `select app_secret_set(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(input.provider, 'secret_provider')},
        ${sqlLiteral(input.value, 'text')}, ${sqlLiteral(key, 'text')}, ${sqlLiteral(version, 'int')})`,
    ),
  ]);
  await writeAuditEvent(tx, {
    tenantId,
    actor,
    action: 'secret.set',
    subject: { type: 'provider_secret' },
    metadata: { provider: input.provider, keyVersion: version },
  });
  const account =
    input.provider === 'seam'
      ? seamAccount(input.value)
      : input.provider === 'ttlock'
        ? ttlockAccountOf(input.value)
        : null;
  if (account)
    await runInTransaction(tx, [
      effectStatement(
        `select app_rekey_lock_account(${sqlLiteral(tenantId, 'uuid')},
          ${sqlLiteral(input.provider, 'lock_provider')}, ${sqlLiteral(account, 'text')})`,
      ),
    ]);
  return { keyVersion: version };
}

function ttlockAccountOf(value: string): string | null {
  const credentials = readTtlockCredentials(value);
  return credentials ? ttlockAccount(credentials) : null;
}

/**
 * A tenant's provider secret in clear, for the service role only; null when none is set. It is
 * decrypted with the key of its own version (the keyring: APP_DATA_KEY and APP_DATA_KEYS).
 */
export async function getProviderSecret({
  tenantId,
  provider,
}: {
  tenantId: string;
  provider: SecretProvider;
}): Promise<string | null> {
  const { keys } = currentKeyring();
  const [rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<{ value: string | null }>(
        `select app_secret_get(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(provider, 'secret_provider')},
          ${sqlLiteral(JSON.stringify(keys), 'jsonb')}) as value`,
      ),
    ]),
  );
  return rows[0]?.value ?? null;
}

/**
 * Re-encrypts every secret on an older key version with the current key (each read with the key of
 * its own version from the keyring), audited `secret.rotated` per secret, all in one transaction.
 * A missing or wrong older key fails closed: nothing changes.
 */
export async function rotateProviderSecrets({ actor }: { actor: Actor }): Promise<{ rotated: number }> {
  const { current, keys } = currentKeyring();
  const version = current.version;
  return asService(async (tx) => {
    const [rows] = await runInTransaction(tx, [
      statement<{ tenant_id: string; provider: SecretProvider; old_version: number }>(`
      select * from app_secret_rotate(${sqlLiteral(JSON.stringify(keys), 'jsonb')}, ${sqlLiteral(version, 'int')})`),
    ]);
    for (const row of rows) {
      await writeAuditEvent(tx, {
        tenantId: row.tenant_id,
        actor,
        action: 'secret.rotated',
        subject: { type: 'provider_secret' },
        metadata: { provider: row.provider, fromVersion: row.old_version, toVersion: version },
      });
    }
    return { rotated: rows.length };
  });
}

export type ProviderSecretSummary = { provider: SecretProvider; keyVersion: number; rotatedAt: Date };

/** Which providers have a secret for a tenant, with key version and rotation date — never the value. */
export async function listProviderSecrets({ tenantId }: { tenantId: string }): Promise<ProviderSecretSummary[]> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.providerSecret.findMany({
      where: { tenantId },
      select: { provider: true, keyVersion: true, rotatedAt: true },
      orderBy: { provider: 'asc' },
    }),
  );
  return rows;
}
