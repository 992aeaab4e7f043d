import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { guestTokenFor } from '../auth/guest-links';
import { adminClient, bookRoom, createBookableTenant } from '../../tooling/testing/fixtures';
import { getGuestStatus } from './get-guest-key';
import { guestStatusLimit } from './guest-rate-limits';
import { routeHandler } from '../api/router';

const guestKey = routeHandler('POST', '/api/guest/{token}/key');

// This process stands in for a web process with scripts/client-address.cjs preloaded.
const MARKER = Symbol.for('unlockos.client-address-preload');
let admin: pg.Client;
beforeAll(async () => {
  (globalThis as Record<symbol, unknown>)[MARKER] = true;
  admin = await adminClient();
});
afterAll(async () => {
  delete (globalThis as Record<symbol, unknown>)[MARKER];
  await admin.end();
});

const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
const call = (token: string, headers: Record<string, string>) =>
  guestKey(new Request(`http://test/api/guest/${encodeURIComponent(token)}/key`, { method: 'POST', headers }), {
    params: Promise.resolve({ token }),
  });
const rateLimitRows = async () =>
  (await admin.query<{ n: number }>('select count(*)::int as n from rate_limits')).rows[0]!.n;

describe('POST /api/guest/{token}/key limits', () => {
  it('answers 404 for a malformed token without creating a rate-limit row', async () => {
    const before = await rateLimitRows();
    for (const token of ['short', "' or 1=1 --", 'a'.repeat(44), `${'a'.repeat(42)}!`, 'x'.repeat(5000)]) {
      const response = await call(token, { 'x-unlockos-client-address': '192.0.2.80' });
      expect({ token: token.slice(0, 50), status: response.status }).toEqual({
        token: token.slice(0, 50),
        status: 404,
      });
      expect((await response.json()).error.code).toBe('not_found');
    }
    expect(await rateLimitRows()).toBe(before);
  });

  it('counts the address the preload saw, never one from X-Forwarded-For', async () => {
    const token = guestTokenFor('00000000-0000-4000-8000-00000000f00d');
    const response = await call(token, {
      'x-unlockos-client-address': '192.0.2.81',
      'x-forwarded-for': '198.51.100.81',
      'x-real-ip': '198.51.100.82',
    });
    expect(response.status).toBe(404);
    const { rows } = await admin.query<{ bucket: string }>(
      'select bucket from rate_limits where bucket = any($1::text[])',
      [['192.0.2.81', '198.51.100.81', '198.51.100.82'].map((address) => `guest-key:addr:${hash(address)}`)],
    );
    expect(rows.map((r) => r.bucket)).toEqual([`guest-key:addr:${hash('192.0.2.81')}`]);
  });
});

describe('a guest link held by someone else', () => {
  it('never keeps the guest’s own page from its key or its status: the limits are per link and address', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const stranger = { 'x-unlockos-client-address': '192.0.2.90' };
    let refused: number | null = null;
    // Fixed 60 s windows: 125 tries reach the limit even when they straddle a window boundary.
    for (let i = 0; i < 125 && refused === null; i++) if ((await call(token, stranger)).status === 429) refused = i;
    expect(refused).not.toBeNull();
    const guest = await call(token, { 'x-unlockos-client-address': '198.51.100.90' });
    expect(guest.status).toBe(200);
    expect((await guest.json()).data).toMatchObject({ status: 'pre_issued', pin: expect.stringMatching(/^\d{6}$/) });

    let pollRefused = false;
    for (let i = 0; i < 245 && !pollRefused; i++)
      pollRefused = await getGuestStatus(token, { limit: guestStatusLimit(token, '192.0.2.90') }).then(
        () => false,
        (error: { code?: string }) => error.code === 'rate_limited',
      );
    expect(pollRefused).toBe(true);
    await expect(getGuestStatus(token, { limit: guestStatusLimit(token, '198.51.100.90') })).resolves.toMatchObject({
      key: { status: 'pre_issued' },
    });
  });
});
