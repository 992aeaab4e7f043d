import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { appPool } from '../db/client';
import { getGuestPage } from './get-guest-page';
import { getGuestStatus } from './get-guest-key';
import { guestStatusLimit } from './guest-rate-limits';
import { completeCheckIn } from '../stays/complete-check-in';
import { revokeKey } from '../keys/revoke-key';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { guestTokenFor } from '../auth/guest-links';
import { routeHandler } from '../api/router';

const guestKey = routeHandler('POST', '/api/guest/{token}/key');

const call = (token: string, address = '203.0.113.7') =>
  guestKey(
    new Request(`http://test/api/guest/${token}/key`, { method: 'POST', headers: { 'x-forwarded-for': address } }),
    { params: Promise.resolve({ token }) },
  );

describe('POST /api/guest/{token}/key', () => {
  it('answers the pre-issued key, then the stay key after check-in, the same on every call', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const before = await call(token);
    expect(before.status).toBe(200);
    const pre = (await before.json()).data;
    expect(pre).toMatchObject({ status: 'pre_issued', roomLabel: '101', pin: expect.stringMatching(/^\d{6}$/) });

    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const answers = await Promise.all([call(token), call(token), call(token)]);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(bodies.map((b) => b.data.id)).toEqual([key.id, key.id, key.id]);
    expect(bodies[0].data).toMatchObject({ status: 'active', roomLabel: '101' });
  });

  it('shows a revoked stay key as revoked and never issues a replacement', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    await revokeKey({ tenantId, keyId: key.id, reason: 'guest checked out early', actor: TEST_ACTOR });
    const body = await (await call(token)).json();
    expect(body.data).toMatchObject({ id: key.id, status: 'revoked', revokedReason: 'guest checked out early' });
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select count(*)::int as n from access_keys where reservation_id = $1 and status = 'active'`,
      [reservationId],
    );
    expect(rows[0].n).toBe(0);
    await admin.end();
  });

  it('answers 404 for unknown, malformed and expired links', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    for (const bad of [guestTokenFor('00000000-0000-4000-8000-000000000000'), 'short', `${token}x`]) {
      const response = await call(bad);
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
    }
    const admin = await adminClient();
    await admin.query(`update guest_links set expires_at = now() - interval '1 second' where reservation_id = $1`, [
      reservationId,
    ]);
    await admin.end();
    expect((await call(token)).status).toBe(404);
  });

  it('limits requests per link with 429 and retry-after', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const statuses: number[] = [];
    let limited: Response | null = null;
    // Fixed 60 s windows: 125 tries reach the limit even when they straddle a window boundary.
    for (let i = 0; i < 125 && !limited; i++) {
      const response = await call(token, `198.51.100.${i}`);
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(60);
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited!.json()).error.code).toBe('rate_limited');
  });
});

describe("a guest request's rate limit, counted in the round trip of the link's read", () => {
  const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
  /** Fills a link's bucket for this minute and the next (a fixed window may turn over mid-test). */
  async function exhaust(bucket: string, limit: number) {
    const admin = await adminClient();
    await admin.query(
      `insert into rate_limits (bucket, window_start, hits)
       select $1, to_timestamp(floor(extract(epoch from now()) / 60) * 60) + make_interval(mins => m), $2
         from generate_series(0, 1) m
       on conflict (bucket, window_start) do update set hits = excluded.hits`,
      [bucket, limit],
    );
    await admin.end();
  }
  async function hits(bucket: string) {
    const admin = await adminClient();
    const { rows } = await admin.query<{ hits: number }>(
      'select hits from rate_limits where bucket = $1 order by window_start',
      [bucket],
    );
    await admin.end();
    return rows.map((r) => r.hits);
  }

  it('refuses an exhausted link with 429 before showing its key, and counts the refused request', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const bucket = `guest-key:token:${hash(token)}:addr:${hash('unknown')}`;
    await exhaust(bucket, 60);
    const before = await hits(bucket);
    const response = await call(token, '198.51.100.200');
    expect(response.status).toBe(429);
    const body = await response.json();
    expect(body.error.code).toBe('rate_limited');
    expect(JSON.stringify(body)).not.toMatch(/"pin"/);
    expect((await hits(bucket)).reduce((a, b) => a + b)).toBe(before.reduce((a, b) => a + b) + 1);
  });

  it('shows the stay of an exhausted link on the key page, without its key, which the page asks for later', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const open = await getGuestPage(token, '198.51.100.201');
    expect(open).toMatchObject({ kind: 'live', initial: { key: { status: 'pre_issued' } } });
    await exhaust(`guest-key:token:${hash(token)}:addr:${hash('198.51.100.201')}`, 60);
    const refused = await getGuestPage(token, '198.51.100.201');
    expect(refused).toMatchObject({ kind: 'live', initial: null, stay: { roomLabel: '101' } });
  });

  it('reads the status poll and counts its limit in one round trip, and refuses an exhausted link', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const query = vi.spyOn(appPool(), 'query');
    try {
      const status = await getGuestStatus(token, { limit: guestStatusLimit(token, '198.51.100.202') });
      expect(status).toMatchObject({ stay: { roomLabel: '101' }, key: { status: 'pre_issued' } });
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
    const bucket = `guest-status:token:${hash(token)}:addr:${hash('198.51.100.202')}`;
    expect((await hits(bucket)).reduce((a, b) => a + b)).toBe(1);
    await exhaust(bucket, 120);
    await expect(getGuestStatus(token, { limit: guestStatusLimit(token, '198.51.100.202') })).rejects.toMatchObject({
      code: 'rate_limited',
    });
  });
});

describe('app_anon through a guest link', () => {
  it('reads only the reservation and keys of its own link', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const mine = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const other = await bookRoom({ tenantId, roomId: roomIds[1]! });
    const { asGuest } = await import('../db/tx');
    const { hashGuestToken } = await import('../auth/guest-links');
    const hash = Buffer.from(hashGuestToken(mine.token)).toString('hex');
    const seen = await asGuest({ guestTokenHash: hash }, async (tx) => ({
      reservations: (await tx.reservation.findMany({ select: { id: true } })).map((r) => r.id),
      keys: (await tx.accessKey.findMany({ select: { reservationId: true } })).map((k) => k.reservationId),
    }));
    expect(seen.reservations).toEqual([mine.reservationId]);
    expect(new Set(seen.keys)).toEqual(new Set([mine.reservationId]));
    expect(seen.reservations).not.toContain(other.reservationId);
    await expect(asGuest({ guestTokenHash: hash }, (tx) => tx.guest.findMany())).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});
