import { afterEach, describe, expect, it } from 'vitest';
import { adminClient, createBookableTenant, loginClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { inOwnDatabase } from '../../tooling/testing/own-database';
import { getProviderSecret, listProviderSecrets, rotateProviderSecrets, setProviderSecret } from './provider-secrets';

const KEY_1 = 'first-data-key-0123456789abcdef';
const KEY_2 = 'second-data-key-0123456789abcdef';
const KEY_3 = 'third-data-key-0123456789abcdef';

/** The current key and version; `older` are the APP_DATA_KEYS entries (`{ 1: KEY_1 }`). */
function useKey(key: string, version: number, older: Record<number, string> = {}) {
  process.env.APP_DATA_KEY = key;
  process.env.APP_DATA_KEY_VERSION = String(version);
  const entries = Object.entries(older).map(([v, k]) => `${v}:${k}`);
  if (entries.length > 0) process.env.APP_DATA_KEYS = entries.join(',');
  else delete process.env.APP_DATA_KEYS;
}

// Rotation re-encrypts every secret of the database, so this file works in a database of its own:
// other files' secrets (on other keys) would make it fail closed, as it should.
inOwnDatabase('secrets');

afterEach(() => {
  delete process.env.APP_DATA_KEY;
  delete process.env.APP_DATA_KEY_VERSION;
  delete process.env.APP_DATA_KEYS;
  delete process.env.APP_DATA_KEY_PREVIOUS;
});

describe('provider secrets', () => {
  it('round-trip through pgcrypto, stored only as ciphertext', async () => {
    useKey(KEY_1, 1);
    const { tenantId } = await createBookableTenant();
    const value = 'calendly-signing-key-Zq81';
    expect(await setProviderSecret({ tenantId, provider: 'calendly', value, actor: TEST_ACTOR })).toEqual({
      keyVersion: 1,
    });
    expect(await getProviderSecret({ tenantId, provider: 'calendly' })).toBe(value);
    expect(await getProviderSecret({ tenantId, provider: 'cal' })).toBeNull();
    const admin = await adminClient();
    const { rows } = await admin.query(`select ciphertext, key_version from provider_secrets where tenant_id = $1`, [
      tenantId,
    ]);
    expect(rows[0].key_version).toBe(1);
    expect(Buffer.from(rows[0].ciphertext).includes(Buffer.from(value))).toBe(false);
    expect(Buffer.from(rows[0].ciphertext).includes(Buffer.from(KEY_1))).toBe(false);
    await admin.end();
    expect(await listProviderSecrets({ tenantId })).toEqual([
      { provider: 'calendly', keyVersion: 1, rotatedAt: expect.any(Date) },
    ]);
  });

  it('can be read only by the service role: app_authenticated and app_anon get 42501', async () => {
    useKey(KEY_1, 1);
    const { tenantId } = await createBookableTenant();
    await setProviderSecret({ tenantId, provider: 'cal', value: 'cal-secret', actor: TEST_ACTOR });
    const login = await loginClient();
    const attempt = async (role: string, sql: string) => {
      await login.query('begin');
      await login.query(`select set_config('role', $1, true), set_config('app.tenant_id', $2, true)`, [role, tenantId]);
      try {
        return (await login.query(sql, sql.includes('$1') ? [tenantId, JSON.stringify({ 1: KEY_1 })] : [])).rows;
      } catch (error) {
        return (error as { code?: string }).code;
      } finally {
        await login.query('rollback');
      }
    };
    for (const role of ['app_authenticated', 'app_anon']) {
      expect(await attempt(role, `select app_secret_get($1, 'cal', $2::jsonb)`)).toBe('42501');
      expect(await attempt(role, `select ciphertext from provider_secrets`)).toBe('42501');
    }
    expect(await attempt('app_service', `select app_secret_get($1, 'cal', $2::jsonb) as v`)).toEqual([
      { v: 'cal-secret' },
    ]);
    expect(await attempt('app_service', `select ciphertext from provider_secrets`)).toBe('42501');
    await login.end();
  });

  it('rotate: rows on the old key version are re-encrypted with the current key, values unchanged', async () => {
    useKey(KEY_1, 1);
    const { tenantId } = await createBookableTenant();
    await setProviderSecret({ tenantId, provider: 'calendly', value: 'value-one', actor: TEST_ACTOR });
    await setProviderSecret({ tenantId, provider: 'lock_vendor', value: 'value-two', actor: TEST_ACTOR });
    useKey(KEY_2, 2, { 1: KEY_1 });
    const { rotated } = await rotateProviderSecrets({ actor: TEST_ACTOR });
    expect(rotated).toBeGreaterThanOrEqual(2);
    expect(await getProviderSecret({ tenantId, provider: 'calendly' })).toBe('value-one');
    expect(await getProviderSecret({ tenantId, provider: 'lock_vendor' })).toBe('value-two');
    const admin = await adminClient();
    const { rows } = await admin.query(`select distinct key_version from provider_secrets where tenant_id = $1`, [
      tenantId,
    ]);
    expect(rows).toEqual([{ key_version: 2 }]);
    const audit = await admin.query(
      `select count(*)::int as n from audit_events where tenant_id = $1 and action = 'secret.rotated'`,
      [tenantId],
    );
    expect(audit.rows[0].n).toBe(2);
    await admin.end();
    expect(await rotateProviderSecrets({ actor: TEST_ACTOR })).toEqual({ rotated: 0 });
    useKey(KEY_1, 1);
    await expect(getProviderSecret({ tenantId, provider: 'calendly' })).rejects.toMatchObject({
      code: 'data_key_mismatch',
    });
  });

  it('fail closed on a wrong previous key: a clear error and nothing changed', async () => {
    useKey(KEY_1, 1);
    const { tenantId } = await createBookableTenant();
    await setProviderSecret({ tenantId, provider: 'calendly', value: 'stays', actor: TEST_ACTOR });
    useKey(KEY_3, 3, { 1: 'not-the-previous-key-0123456789' });
    await expect(rotateProviderSecrets({ actor: TEST_ACTOR })).rejects.toMatchObject({ code: 'data_key_mismatch' });
    const admin = await adminClient();
    const { rows } = await admin.query(`select key_version from provider_secrets where tenant_id = $1`, [tenantId]);
    expect(rows).toEqual([{ key_version: 1 }]);
    await admin.end();
    useKey(KEY_1, 1);
    expect(await getProviderSecret({ tenantId, provider: 'calendly' })).toBe('stays');
  });

  it('decrypt each row with the key of its own version: a new APP_DATA_KEY does not break secrets set before it', async () => {
    useKey(KEY_1, 1);
    const { tenantId } = await createBookableTenant();
    await setProviderSecret({ tenantId, provider: 'calendly', value: 'set-on-v1', actor: TEST_ACTOR });
    useKey(KEY_2, 2, { 1: KEY_1 });
    expect(await getProviderSecret({ tenantId, provider: 'calendly' })).toBe('set-on-v1');
    await setProviderSecret({ tenantId, provider: 'cal', value: 'set-on-v2', actor: TEST_ACTOR });
    expect(await getProviderSecret({ tenantId, provider: 'cal' })).toBe('set-on-v2');
    // Without the old key the row cannot be read, and says so.
    useKey(KEY_2, 2);
    await expect(getProviderSecret({ tenantId, provider: 'calendly' })).rejects.toMatchObject({
      code: 'data_key_mismatch',
    });
    expect(await getProviderSecret({ tenantId, provider: 'cal' })).toBe('set-on-v2');
  });

  it('rotate: rows more than one version behind move to the current version too', async () => {
    useKey(KEY_1, 1);
    const { tenantId } = await createBookableTenant();
    await setProviderSecret({ tenantId, provider: 'calendly', value: 'from-v1', actor: TEST_ACTOR });
    useKey(KEY_2, 2, { 1: KEY_1 });
    await setProviderSecret({ tenantId, provider: 'cal', value: 'from-v2', actor: TEST_ACTOR });
    useKey(KEY_3, 3, { 1: KEY_1, 2: KEY_2 });
    expect((await rotateProviderSecrets({ actor: TEST_ACTOR })).rotated).toBeGreaterThanOrEqual(2);
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select provider, key_version from provider_secrets where tenant_id = $1 order by provider`,
      [tenantId],
    );
    await admin.end();
    expect(rows).toEqual([
      { provider: 'calendly', key_version: 3 },
      { provider: 'cal', key_version: 3 },
    ]);
    useKey(KEY_3, 3);
    expect(await getProviderSecret({ tenantId, provider: 'calendly' })).toBe('from-v1');
    expect(await getProviderSecret({ tenantId, provider: 'cal' })).toBe('from-v2');
  });

  it('a Calendly webhook keeps verifying after APP_DATA_KEY changes, before any rotation', async () => {
    const { receiveCalendlyWebhook } = await import('../webhooks/receive-booking-provider');
    const { signCalendly } = await import('../webhooks/calendly/verify');
    useKey(KEY_1, 1);
    const { tenantId } = await createBookableTenant();
    await setProviderSecret({ tenantId, provider: 'calendly', value: 'calendly-signing-key', actor: TEST_ACTOR });
    useKey(KEY_2, 2, { 1: KEY_1 });
    const raw = JSON.stringify({
      event: 'invitee.created',
      created_at: new Date().toISOString(),
      payload: { uri: `u-${Date.now()}`, scheduled_event: { start_time: 'x', end_time: 'y', event_type: 'z' } },
    });
    const result = await receiveCalendlyWebhook({
      tenantIdParam: tenantId,
      raw: new TextEncoder().encode(raw),
      signature: signCalendly(raw, 'calendly-signing-key'),
    });
    expect(result.duplicate).toBe(false);
  });
});
