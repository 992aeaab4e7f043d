import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, asRole, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { callPublic, createBookingSite, trustTestClientAddresses } from '../../tooling/testing/booking-site';
import { routeHandler } from '../api/router';
import { addRoomTypePhoto, photoTypeOf, readPublicPhoto, readRoomTypePhoto, removeRoomTypePhoto } from './photos';
import { listRoomTypes } from './list-room-types';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]);
const WEBP = Uint8Array.from([0x52, 0x49, 0x46, 0x46, 1, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38]);
const TEXT = new TextEncoder().encode('<svg onload="alert(1)"></svg>');

let admin: pg.Client;
let site: Awaited<ReturnType<typeof createBookingSite>>;
let other: Awaited<ReturnType<typeof createBookingSite>>;

beforeAll(async () => {
  trustTestClientAddresses();
  admin = await adminClient();
  [site, other] = await Promise.all([createBookingSite(admin), createBookingSite(admin)]);
});
afterAll(() => admin.end());

const photoCount = async (roomTypeId: string) =>
  (await admin.query(`select count(*)::int as n from room_type_photos where room_type_id = $1`, [roomTypeId])).rows[0]
    .n as number;

async function getPhoto(slug: string, id: string) {
  const path = '/api/public/facilities/{slug}/photos/{id}';
  const response = await routeHandler('GET', path)(
    new Request(`http://test/api/public/facilities/${slug}/photos/${id}`, {
      headers: { 'x-unlockos-client-address': '198.51.100.7' },
    }),
    { params: Promise.resolve({ slug, id }) },
  );
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: new Uint8Array(await response.arrayBuffer()),
    cache: response.headers.get('cache-control'),
  };
}

describe('photoTypeOf', () => {
  it('knows a file by its own bytes, not by its name', () => {
    expect(photoTypeOf(PNG)).toBe('image/png');
    expect(photoTypeOf(JPEG)).toBe('image/jpeg');
    expect(photoTypeOf(WEBP)).toBe('image/webp');
    expect(photoTypeOf(TEXT)).toBeNull();
    expect(photoTypeOf(new Uint8Array())).toBeNull();
    expect(photoTypeOf(Uint8Array.from([0xff, 0xd8]))).toBeNull();
  });
});

describe('room type photos', () => {
  it('adds photos in order, lists them, serves them on the published site and removes them, audited', async () => {
    const first = await addRoomTypePhoto({
      ...ids(site),
      bytes: PNG,
      alt: ' Twin beds by the window ',
      actor: TEST_ACTOR,
    });
    const second = await addRoomTypePhoto({ ...ids(site), bytes: JPEG, alt: '', actor: TEST_ACTOR });
    expect([first.position, second.position]).toEqual([0, 1]);
    const [type] = await listRoomTypes({ tenantId: site.tenantId, roomTypeId: site.roomTypeId });
    expect(type!.photos).toEqual([
      { id: first.id, alt: 'Twin beds by the window' },
      { id: second.id, alt: '' },
    ]);

    const facility = await callPublic('GET', '/api/public/facilities/{slug}', { slug: site.slug });
    expect(facility.body.data.roomTypes[0].photos).toEqual([
      { url: `/api/public/facilities/${site.slug}/photos/${first.id}`, alt: 'Twin beds by the window' },
      { url: `/api/public/facilities/${site.slug}/photos/${second.id}`, alt: '' },
    ]);
    const served = await getPhoto(site.slug, first.id);
    expect(served).toMatchObject({ status: 200, type: 'image/png' });
    expect(served.bytes).toEqual(PNG);
    expect(served.cache).toContain('immutable');

    await removeRoomTypePhoto({ ...ids(site), photoId: first.id, actor: TEST_ACTOR });
    expect((await getPhoto(site.slug, first.id)).status).toBe(404);
    const audit = await admin.query(
      `select action from audit_events where tenant_id = $1 and subject_id = $2 order by id`,
      [site.tenantId, site.roomTypeId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'room_type.photo_added',
      'room_type.photo_added',
      'room_type.photo_removed',
    ]);
    // The freed place is taken again by the next photo.
    expect((await addRoomTypePhoto({ ...ids(site), bytes: WEBP, alt: '', actor: TEST_ACTOR })).position).toBe(0);
  });

  it('refuses what is not a JPEG, PNG or WebP, and more than 1 MiB, writing nothing', async () => {
    const before = await photoCount(other.roomTypeId);
    await expect(addRoomTypePhoto({ ...ids(other), bytes: TEXT, alt: '', actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(PNG);
    await expect(addRoomTypePhoto({ ...ids(other), bytes: big, alt: '', actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await photoCount(other.roomTypeId)).toBe(before);
    // The database holds the limits itself, whoever writes.
    const direct = await admin
      .query(
        `insert into room_type_photos (tenant_id, room_type_id, position, content_type, bytes)
       values ($1, $2, 5, 'image/svg+xml', '\\x3c737667'::bytea)`,
        [other.tenantId, other.roomTypeId],
      )
      .catch((error: { code: string }) => error);
    expect(direct).toMatchObject({ code: '23514' });
  });

  it('holds at most six a type, also when uploads race for the last places', async () => {
    const fresh = await createBookingSite(admin);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => addRoomTypePhoto({ ...ids(fresh), bytes: PNG, alt: '', actor: TEST_ACTOR })),
    );
    const added = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(await photoCount(fresh.roomTypeId)).toBe(added.length);
    expect(added.length).toBeLessThanOrEqual(6);
    expect(added.length + refused.length).toBe(8);
    for (const reason of refused) expect(reason).toMatchObject({ code: 'conflict' });
    // Once six are there, the seventh is refused.
    while ((await photoCount(fresh.roomTypeId)) < 6)
      await addRoomTypePhoto({ ...ids(fresh), bytes: PNG, alt: '', actor: TEST_ACTOR }).catch(() => undefined);
    await expect(addRoomTypePhoto({ ...ids(fresh), bytes: PNG, alt: '', actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await photoCount(fresh.roomTypeId)).toBe(6);
  });

  it('keeps another tenant’s photos out of reach: their ids, their site, their rows', async () => {
    const theirs = await addRoomTypePhoto({ ...ids(other), bytes: JPEG, alt: '', actor: TEST_ACTOR });
    // Their type through my tenant: not found, nothing written.
    await expect(
      addRoomTypePhoto({
        tenantId: site.tenantId,
        roomTypeId: other.roomTypeId,
        bytes: PNG,
        alt: '',
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      removeRoomTypePhoto({
        tenantId: site.tenantId,
        roomTypeId: other.roomTypeId,
        photoId: theirs.id,
        actor: TEST_ACTOR,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await readRoomTypePhoto({ tenantId: site.tenantId, photoId: theirs.id })).toBeNull();
    expect(await readRoomTypePhoto({ tenantId: other.tenantId, photoId: theirs.id })).not.toBeNull();
    // Their photo through my site's address: not there.
    expect(await readPublicPhoto({ slug: site.slug, photoId: theirs.id })).toBeNull();
    expect((await getPhoto(site.slug, theirs.id)).status).toBe(404);
    // Row-level security: my staff see none of their rows.
    const rows = await asRole('app_authenticated', site.tenantId, `select id from room_type_photos where id = $1`, [
      theirs.id,
    ]);
    expect(rows).toEqual({ rows: [] });
    // An unpublished site serves no photo.
    await admin.query(`update facilities set published_at = null where tenant_id = $1`, [other.tenantId]);
    expect((await getPhoto(other.slug, theirs.id)).status).toBe(404);
    expect((await getPhoto(other.slug, 'not-a-uuid')).status).toBe(400);
  });
});

function ids(s: { tenantId: string; roomTypeId: string }) {
  return { tenantId: s.tenantId, roomTypeId: s.roomTypeId };
}
