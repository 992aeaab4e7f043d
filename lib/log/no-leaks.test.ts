import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Log everything to a file for this test, before any module creates the logger.
const logFile = path.join(mkdtempSync(path.join(tmpdir(), 'unlockos-log-')), 'app.log');
process.env.UNLOCKOS_LOG_FILE = logFile;
process.env.LOG_LEVEL = 'debug';

describe('secrets never reach the logs or the database in clear', () => {
  it('PINs, guest tokens, provider secrets, API keys and passwords', async () => {
    const { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } = await import('../../tooling/testing/fixtures');
    const { createApiKey } = await import('../auth/api-keys');
    const { createStaffUser } = await import('../staff/create-staff-user');
    const { signInWithPassword } = await import('../auth/sign-in');
    const { setProviderSecret } = await import('../secrets/provider-secrets');
    const { routeHandler } = await import('../api/router');
    const checkIn = routeHandler('POST', '/api/v1/reservations/{id}/check-in');
    const guestKey = routeHandler('POST', '/api/guest/{token}/key');
    const revoke = routeHandler('POST', '/api/v1/keys/{id}/revoke');
    const rooms = routeHandler('GET', '/api/v1/rooms');
    process.env.APP_DATA_KEY = 'leak-test-data-key-0123456789';

    const { tenantId, roomIds } = await createBookableTenant();
    const password = 'Correct-Horse-Battery-9931';
    const email = `leak-${Date.now()}@example.com`;
    await createStaffUser({ tenantId, email, password, role: 'manager' });
    await signInWithPassword({ email, password, address: '198.51.100.1' });
    await signInWithPassword({ email, password: `${password}-wrong`, address: '198.51.100.1' });
    const secretValue = 'whsec_calendly_leaktest_5f1e';
    await setProviderSecret({ tenantId, provider: 'calendly', value: secretValue, actor: TEST_ACTOR });
    const { key: apiKey } = await createApiKey({ tenantId, name: 'leak', actor: TEST_ACTOR });
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]! });

    const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', cookie: `session=${apiKey}` };
    const checked = await (
      await checkIn(new Request('http://t/x', { method: 'POST', headers: auth }), {
        params: Promise.resolve({ id: reservationId }),
      })
    ).json();
    const pin: string = checked.data.key.pin;
    await guestKey(new Request(`http://t/api/guest/${token}/key`, { method: 'POST' }), {
      params: Promise.resolve({ token }),
    });
    await guestKey(new Request(`http://t/api/guest/${token}x/key`, { method: 'POST' }), {
      params: Promise.resolve({ token: `${token}x` }),
    });
    // A failing request whose body carries secrets: the error is logged, the body is not.
    await revoke(
      new Request('http://t/x', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ reason: pin, note: secretValue, password }),
      }),
      {
        params: Promise.resolve({ id: checked.data.key.id }),
      },
    );
    await rooms(new Request('http://t/api/v1/rooms', { headers: { authorization: `Bearer ${apiKey}x` } }), {
      params: Promise.resolve({}),
    });

    const sensitive: Record<string, string> = { pin, token, secretValue, apiKey, password };
    const log = readFileSync(logFile, 'utf8');
    expect(log.length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(sensitive))
      expect({ name, inLog: log.includes(value) }).toEqual({ name, inLog: false });

    // Every text-like column of every table, scanned for each value in clear.
    const admin = await adminClient();
    const { rows: columns } = await admin.query<{ table_name: string; column_name: string; data_type: string }>(
      `select table_name, column_name, data_type from information_schema.columns
       where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'bytea')`,
    );
    const found: string[] = [];
    for (const c of columns) {
      const expr =
        c.data_type === 'bytea'
          ? `encode(${admin.escapeIdentifier(c.column_name)}, 'escape')`
          : `${admin.escapeIdentifier(c.column_name)}::text`;
      for (const [name, value] of Object.entries(sensitive)) {
        const { rows } = await admin.query(
          `select count(*)::int as n from public.${admin.escapeIdentifier(c.table_name)} where position($1 in ${expr}) > 0`,
          [value],
        );
        if (rows[0].n > 0) found.push(`${name} in ${c.table_name}.${c.column_name}`);
      }
    }
    // The PIN is the one value the lock and the guest need in clear: in access_keys.pin and nowhere else.
    // (The failed revoke above wrote nothing: its reason never reached an audit row.)
    expect(found.filter((f) => f !== 'pin in access_keys.pin')).toEqual([]);
    const jobs = await admin.query(
      `select count(*)::int as n from graphile_worker._private_jobs where payload::text like '%' || $1 || '%'`,
      [pin],
    );
    expect(jobs.rows[0].n).toBe(0);
    await admin.end();
  });
});
