import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as icsRoute } from '@/app/k/[token]/stay.ics/route';
import { hashGuestToken } from '../auth/guest-links';
import { cancelReservation } from '../bookings/cancel-reservation';
import { asGuest } from '../db/tx';
import { revokeKey } from '../keys/revoke-key';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { deleteGuest } from './delete-guest';
import { getEndedGuestStay, getGuestStatus, getGuestStay } from './get-guest-key';
import { getGuestPage } from './get-guest-page';
import { rotateGuestLink } from './rotate-guest-link';
import { routeHandler } from '../api/router';

const guestKeyRoute = routeHandler('POST', '/api/guest/{token}/key');
const statusRoute = routeHandler('GET', '/api/guest/{token}/status');

// The route reads the request's language through next/headers; here it is English.
vi.mock('@/i18n/server', async () => {
  const { translator } = await import('@/lib/i18n/locale');
  return { getT: async () => translator('en'), getLocale: async () => 'en' };
});

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const ADDRESS = '203.0.113.50';
const route = (token: string) => ({ params: Promise.resolve({ token }) });
const status = (token: string, headers: Record<string, string> = {}) =>
  statusRoute(
    new Request(`http://test/api/guest/${token}/status`, { headers: { 'x-forwarded-for': ADDRESS, ...headers } }),
    route(token),
  );
const postKey = (token: string) =>
  guestKeyRoute(new Request(`http://test/api/guest/${token}/key`, { method: 'POST' }), route(token));
const ics = (token: string) => icsRoute(new Request(`http://test/k/${token}/stay.ics`), route(token));

/** A tenant whose facility has its door information written, and a booking in it. */
async function stayWithInfo(label: string, startsInHours = -1) {
  const { tenantId, facilityId, roomIds } = await createBookableTenant({ name: label });
  await admin.query(`update facilities set address = $2, phone = $3, guest_info = $4 where id = $1`, [
    facilityId,
    `1-2-3 ${label} Street, Tokyo`,
    `+81 3 0000 ${label.length}`,
    { en: { wifiPassword: `wifi-${label}` } },
  ]);
  const booked = await bookRoom({ tenantId, roomId: roomIds[0]!, startsInHours });
  return { tenantId, facilityId, roomIds, ...booked };
}

const markSynced = (keyId: string) =>
  admin.query(`update access_keys set vendor_sync = 'synced' where id = $1`, [keyId]);

describe('GET /api/guest/{token}/status', () => {
  it('follows the key through check-in and revocation, never answering an ended key’s PIN', async () => {
    const s = await stayWithInfo('Follow');
    const first = await status(s.token);
    expect(first.status).toBe(200);
    const pre = (await first.json()).data;
    expect(pre.stay).toMatchObject({ status: 'confirmed', roomLabel: '101' });
    expect(pre.key).toMatchObject({ status: 'pre_issued', pin: expect.stringMatching(/^\d{6}$/) });

    const { key } = await completeCheckIn({ tenantId: s.tenantId, reservationId: s.reservationId, actor: TEST_ACTOR });
    await markSynced(key.id);
    const afterCheckIn = await status(s.token);
    const text = await afterCheckIn.text();
    expect(JSON.parse(text).data.key).toMatchObject({ id: key.id, status: 'active', pin: key.pin });
    expect(text).not.toContain(pre.key.pin);

    await revokeKey({ tenantId: s.tenantId, keyId: key.id, reason: 'lost phone', actor: TEST_ACTOR });
    const revoked = await (await status(s.token)).text();
    expect(JSON.parse(revoked).data.key).toMatchObject({ id: key.id, status: 'revoked', pin: null });
    expect(revoked).not.toContain(key.pin!);
    // Reading issued nothing: the revoked stay key is still the only stay key.
    const { rows } = await admin.query(
      `select count(*)::int as n from access_keys where reservation_id = $1 and check_in_id is not null`,
      [s.reservationId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('answers 304 to the same ETag while nothing changed, and the new state once something did', async () => {
    const s = await stayWithInfo('Etag');
    const first = await status(s.token);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const same = await status(s.token, { 'if-none-match': etag });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe('');
    const { key } = await completeCheckIn({ tenantId: s.tenantId, reservationId: s.reservationId, actor: TEST_ACTOR });
    const changed = await status(s.token, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await changed.json()).data.key.id).toBe(key.id);
  });

  it('is polled by a page left open without spending the key endpoint’s budget', async () => {
    const s = await stayWithInfo('Poll');
    // 70 polls in a minute: more than the key endpoint allows a link (60), as many as six open pages make.
    const answers = [];
    for (let i = 0; i < 70; i++) answers.push((await status(s.token)).status);
    expect(answers.every((code) => code === 200)).toBe(true);
    expect((await postKey(s.token)).status).toBe(200);
  });

  it('tells a cancelled and a checked-out stay apart from an unknown link, and keeps the key endpoint’s 404', async () => {
    const cancelled = await stayWithInfo('Cancelled', 48);
    await cancelReservation({
      tenantId: cancelled.tenantId,
      reservationId: cancelled.reservationId,
      reason: 'test',
      actor: TEST_ACTOR,
    });
    const c = await status(cancelled.token);
    expect(c.status).toBe(200);
    expect((await c.json()).data).toMatchObject({ stay: { status: 'cancelled' }, key: null });
    expect((await postKey(cancelled.token)).status).toBe(404);
    expect(await getGuestStay(cancelled.token)).toBeNull();
    expect(await getGuestPage(cancelled.token, ADDRESS)).toEqual({
      kind: 'cancelled',
      facilityName: 'Main',
      phone: '+81 3 0000 9',
      email: null,
      address: '1-2-3 Cancelled Street, Tokyo',
    });

    const out = await stayWithInfo('Out');
    await completeCheckIn({ tenantId: out.tenantId, reservationId: out.reservationId, actor: TEST_ACTOR });
    await admin.query(`update reservations set status = 'checked_out' where id = $1`, [out.reservationId]);
    const o = await status(out.token);
    const body = await o.text();
    expect(JSON.parse(body).data).toMatchObject({ stay: { status: 'checked_out' }, key: null });
    expect(body).not.toMatch(/"pin"/);
    expect((await postKey(out.token)).status).toBe(404);
    expect(await getGuestPage(out.token, ADDRESS)).toMatchObject({
      kind: 'thanks',
      address: '1-2-3 Out Street, Tokyo',
    });
  });

  it('thanks the guest when the stay has passed its end while the link is in its grace', async () => {
    const s = await stayWithInfo('Grace', -30);
    // Booked 30 h ago for 24 h: ended 6 h ago, the link lives a day past the end.
    expect(await getGuestPage(s.token, ADDRESS)).toMatchObject({ kind: 'thanks', phone: '+81 3 0000 5' });
  });

  it('answers 404 for a rotated link, a deleted guest’s link and made-up tokens — even when the stay ended', async () => {
    const rotated = await stayWithInfo('Rotated', 48);
    await rotateGuestLink({ tenantId: rotated.tenantId, reservationId: rotated.reservationId, actor: TEST_ACTOR });
    await cancelReservation({
      tenantId: rotated.tenantId,
      reservationId: rotated.reservationId,
      reason: 'test',
      actor: TEST_ACTOR,
    });
    expect((await status(rotated.token)).status).toBe(404);
    expect(await getEndedGuestStay(rotated.token)).toBeNull();
    expect(await getGuestPage(rotated.token, ADDRESS)).toBeNull();

    const deleted = await stayWithInfo('Deleted', 48);
    await cancelReservation({
      tenantId: deleted.tenantId,
      reservationId: deleted.reservationId,
      reason: 'test',
      actor: TEST_ACTOR,
    });
    await deleteGuest({ tenantId: deleted.tenantId, guestId: deleted.guestId, actor: TEST_ACTOR });
    expect((await status(deleted.token)).status).toBe(404);
    expect(await getGuestPage(deleted.token, ADDRESS)).toBeNull();

    for (const bad of ['short', `${deleted.token.slice(0, -1)}A`]) expect((await status(bad)).status).toBe(404);
  });
});

describe('a guest link as app_anon', () => {
  it('reads its own facility’s door information and key, never another reservation’s', async () => {
    const a = await stayWithInfo('Alpha');
    const b = await stayWithInfo('Bravo');
    const hash = Buffer.from(hashGuestToken(a.token)).toString('hex');
    const seen = await asGuest({ guestTokenHash: hash }, async (tx) => ({
      facilities: await tx.facility.findMany({ select: { id: true, address: true, phone: true, guestInfo: true } }),
      keys: await tx.accessKey.findMany({ select: { reservationId: true } }),
      ended: await tx.$queryRaw<unknown[]>`select * from app_guest_ended_stay()`,
    }));
    expect(seen.facilities).toEqual([
      {
        id: a.facilityId,
        address: '1-2-3 Alpha Street, Tokyo',
        phone: '+81 3 0000 5',
        guestInfo: { en: { wifiPassword: 'wifi-Alpha' } },
      },
    ]);
    expect(new Set(seen.keys.map((k) => k.reservationId))).toEqual(new Set([a.reservationId]));
    expect(seen.ended).toEqual([]);
    expect((await getGuestStay(a.token))!.facility.address).toBe('1-2-3 Alpha Street, Tokyo');
    expect((await getGuestStatus(b.token))!.key!.pin).not.toBe((await getGuestStatus(a.token))!.key!.pin);

    // B's booking ends: A's link still sees nothing of it, through the table or the function.
    await cancelReservation({
      tenantId: b.tenantId,
      reservationId: b.reservationId,
      reason: 'test',
      actor: TEST_ACTOR,
    });
    const after = await asGuest({ guestTokenHash: hash }, async (tx) => ({
      facilities: await tx.facility.count(),
      ended: await tx.$queryRaw<unknown[]>`select * from app_guest_ended_stay()`,
    }));
    expect(after).toEqual({ facilities: 1, ended: [] });
    // Columns the page does not need stay closed to the guest role.
    await expect(
      asGuest({ guestTokenHash: hash }, (tx) => tx.facility.findMany({ select: { keyLeadMinutes: true } })),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
});

describe('GET /k/{token}/stay.ics', () => {
  it('is the stay without its PIN, and 404 once the link is rotated', async () => {
    const s = await stayWithInfo('Calendar', 2);
    const pin = (await getGuestStatus(s.token))!.key!.pin!;
    const response = await ics(s.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await response.text();
    expect(text).toContain(`UID:${s.reservationId}@`);
    expect(text).toContain('SUMMARY:Main · Room 101');
    expect(text).toContain('LOCATION:1-2-3 Calendar Street\\, Tokyo');
    expect(text.replace(/\r\n /g, '')).toContain(`/k/${s.token}`);
    expect(text).not.toContain(pin);

    await rotateGuestLink({ tenantId: s.tenantId, reservationId: s.reservationId, actor: TEST_ACTOR });
    expect((await ics(s.token)).status).toBe(404);
    expect((await ics('short')).status).toBe(404);
  });
});
