import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { hashGuestToken } from '../auth/guest-links';
import { cancelReservation } from '../bookings/cancel-reservation';
import { completeCheckIn } from '../stays/complete-check-in';
import { asGuest } from '../db/tx';
import { deleteGuest } from './delete-guest';
import { expireDueKeys } from '../keys/expire-keys';
import { revokeKey } from '../keys/revoke-key';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { getGuestKey, getGuestStay } from './get-guest-key';
import { routeHandler } from '../api/router';

const guestKeyRoute = routeHandler('POST', '/api/guest/{token}/key');
const reservationKeysRoute = routeHandler('GET', '/api/v1/reservations/{id}/keys');
const reservationRoute = routeHandler('GET', '/api/v1/reservations/{id}');

// An ended key's PIN is never sent again, to anyone; a guest link stops working with its stay.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const rotateLinkRoute = async (request: Request, route: { params: Promise<{ id: string }> }) =>
  routeHandler('POST', '/api/v1/reservations/{id}/guest-link')(request, route);

const callGuest = (token: string) =>
  guestKeyRoute(new Request(`http://test/api/guest/${token}/key`, { method: 'POST' }), {
    params: Promise.resolve({ token }),
  });

async function apiKeyOf(tenantId: string) {
  return (await createApiKey({ tenantId, name: 'pms', actor: TEST_ACTOR })).key;
}

const api = (apiKey: string, path: string, init: RequestInit = {}) =>
  new Request(`http://test/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...init.headers },
  });

describe('the PIN of an ended or failed key', () => {
  it('is not in the guest endpoint’s answer nor in what the key page renders, once revoked', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    await revokeKey({ tenantId, keyId: key.id, reason: 'lost phone', actor: TEST_ACTOR });
    const response = await callGuest(token);
    const text = await response.text();
    expect(JSON.parse(text).data).toMatchObject({ id: key.id, status: 'revoked', pin: null });
    expect(text).not.toContain(key.pin!);
    // The key page passes what getGuestKey answers to the browser.
    expect(await getGuestKey(token)).toMatchObject({ status: 'revoked', pin: null });
  });

  it('is not sent for an expired key, whether the sweep ran or the key is merely past its end', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    await admin.query(
      `update access_keys set valid_from = now() - interval '2 hours', expires_at = now() - interval '1 second' where id = $1`,
      [key.id],
    );
    expect((await getGuestKey(token)).pin).toBeNull();
    await expireDueKeys();
    const data = (await (await callGuest(token)).json()).data;
    expect(data).toMatchObject({ status: 'expired', pin: null });
  });

  it('is not sent to the guest when the lock could not be programmed', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const { token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    await admin.query(
      `update access_keys set vendor_sync = 'failed', vendor_error = 'vendor_-3036' where room_id = $1`,
      [roomIds[0]],
    );
    expect((await (await callGuest(token)).json()).data).toMatchObject({
      status: 'pre_issued',
      vendorSync: 'failed',
      pin: null,
    });
  });

  it('is not in the staff API either: GET /reservations/{id}/keys answers pin null for ended keys', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const apiKey = await apiKeyOf(tenantId);
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const response = await reservationKeysRoute(api(apiKey, `/reservations/${reservationId}/keys`), {
      params: Promise.resolve({ id: reservationId }),
    });
    const keys = (await response.json()).data as { id: string; status: string; pin: string | null }[];
    expect(keys.find((k) => k.id === key.id)).toMatchObject({ status: 'active', pin: key.pin });
    expect(keys.filter((k) => k.status === 'revoked').map((k) => k.pin)).toEqual([null]);
  });

  it('cannot be revealed by staff once the key has ended', async () => {
    const { revealPin } = await import('../keys/reveal-pin');
    const { tenantId, roomIds } = await createBookableTenant();
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    await revokeKey({ tenantId, keyId: key.id, reason: 'lost phone', actor: TEST_ACTOR });
    await expect(revealPin({ tenantId, keyId: key.id, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'illegal_transition',
    });
    const audit = await admin.query(
      `select count(*)::int as n from audit_events where action = 'key.pin_revealed' and subject_id = $1`,
      [key.id],
    );
    expect(audit.rows[0].n).toBe(0);
  });
});

describe('a guest link', () => {
  for (const [name, end] of [
    [
      'the stay is cancelled',
      async (t: { tenantId: string; reservationId: string; guestId: string }) =>
        cancelReservation({ tenantId: t.tenantId, reservationId: t.reservationId, reason: 'test', actor: TEST_ACTOR }),
    ],
    [
      'the guest is checked out',
      async (t: { tenantId: string; reservationId: string; guestId: string }) =>
        admin.query(`update reservations set status = 'checked_out' where id = $1`, [t.reservationId]),
    ],
    [
      'the guest is deleted',
      async (t: { tenantId: string; reservationId: string; guestId: string }) =>
        deleteGuest({ tenantId: t.tenantId, guestId: t.guestId, actor: TEST_ACTOR }),
    ],
  ] as const) {
    it(`answers 404 once ${name}, and app_anon sees none of its rows`, async () => {
      const { tenantId, roomIds } = await createBookableTenant();
      const booked = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours: -1 });
      await completeCheckIn({ tenantId, reservationId: booked.reservationId, actor: TEST_ACTOR });
      expect((await callGuest(booked.token)).status).toBe(200);
      await end({ tenantId, reservationId: booked.reservationId, guestId: booked.guestId });
      const response = await callGuest(booked.token);
      expect(response.status).toBe(404);
      expect(await getGuestStay(booked.token)).toBeNull();
      const hash = Buffer.from(hashGuestToken(booked.token)).toString('hex');
      const seen = await asGuest({ guestTokenHash: hash }, async (tx) => ({
        links: await tx.guestLink.count(),
        reservations: await tx.reservation.count(),
        keys: await tx.accessKey.count(),
      }));
      expect(seen).toEqual({ links: 0, reservations: 0, keys: 0 });
    });
  }

  it('can be rotated by the desk: the old link answers 404 from then on, the new one works, audited', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    const apiKey = await apiKeyOf(tenantId);
    const { reservationId, token } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    const response = await rotateLinkRoute(
      api(apiKey, `/reservations/${reservationId}/guest-link`, { method: 'POST' }),
      { params: Promise.resolve({ id: reservationId }) },
    );
    expect(response.status).toBe(200);
    const { guestUrl } = (await response.json()).data;
    const newToken = /\/k\/([A-Za-z0-9_-]{43})$/.exec(guestUrl)![1]!;
    expect(newToken).not.toBe(token);
    expect((await callGuest(token)).status).toBe(404);
    expect((await callGuest(newToken)).status).toBe(200);
    const audit = await admin.query(
      `select action, subject_id from audit_events where tenant_id = $1 and action = 'guest_link.rotated'`,
      [tenantId],
    );
    expect(audit.rows).toEqual([{ action: 'guest_link.rotated', subject_id: reservationId }]);
    const view = await reservationRoute(api(apiKey, `/reservations/${reservationId}`), {
      params: Promise.resolve({ id: reservationId }),
    });
    expect((await view.json()).data.guestUrl).toBe(guestUrl);
    const live = await admin.query(
      `select count(*)::int as n from guest_links where reservation_id = $1 and ended_at is null`,
      [reservationId],
    );
    expect(live.rows[0].n).toBe(1);
  });

  it('cannot be rotated with another tenant’s key (404), and two rotations at once leave one live link', async () => {
    const a = await createBookableTenant();
    const b = await createBookableTenant();
    const { reservationId, token } = await bookRoom({ tenantId: b.tenantId, roomId: b.roomIds[0]! });
    const foreign = await rotateLinkRoute(
      api(await apiKeyOf(a.tenantId), `/reservations/${reservationId}/guest-link`, { method: 'POST' }),
      { params: Promise.resolve({ id: reservationId }) },
    );
    expect(foreign.status).toBe(404);
    expect((await callGuest(token)).status).toBe(200);
    const keyB = await apiKeyOf(b.tenantId);
    const both = await Promise.all(
      [1, 2].map(() =>
        rotateLinkRoute(api(keyB, `/reservations/${reservationId}/guest-link`, { method: 'POST' }), {
          params: Promise.resolve({ id: reservationId }),
        }),
      ),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const live = await admin.query(
      `select count(*)::int as n from guest_links where reservation_id = $1 and ended_at is null`,
      [reservationId],
    );
    expect(live.rows[0].n).toBe(1);
  });
});
