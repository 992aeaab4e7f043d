import { describe, expect, it } from 'vitest';
import { ApiKeyCache } from '../auth/api-key-cache';
import { createApiKey, revokeApiKey } from '../auth/api-keys';
import { listReservations } from '../bookings/list-reservations';
import { listRooms } from '../rooms/list-rooms';
import { issueCheckInKey } from '../stays/issue-check-in-key';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { apiKeyBucket, apiKeyLimit } from './with-api-key';
import { routeHandler } from './router';

const rooms = routeHandler('GET', '/api/v1/rooms');
const reservations = routeHandler('GET', '/api/v1/reservations');
const checkIn = routeHandler('POST', '/api/v1/reservations/{id}/check-in');
const checkInKey = routeHandler('POST', '/api/v1/check-ins/{id}/key');

type Handler = (request: Request, route: { params: Promise<{ id: string }> }) => Promise<Response>;
const asHandler = (handler: unknown) => handler as Handler;

function call(handler: Handler, apiKey: string, path: string, id = '', method = 'GET') {
  const request = new Request(`http://test/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: method === 'POST' ? '{}' : undefined,
  });
  return handler(request, { params: Promise.resolve({ id }) });
}

async function tenantWithStay(name: string) {
  const tenant = await createBookableTenant({ name });
  const created = await createApiKey({ tenantId: tenant.tenantId, name: 'pms', actor: TEST_ACTOR });
  const { reservationId } = await bookRoom({ tenantId: tenant.tenantId, roomId: tenant.roomIds[0]! });
  const checkedIn = await call(
    asHandler(checkIn),
    created.key,
    `reservations/${reservationId}/check-in`,
    reservationId,
    'POST',
  );
  const { checkInId } = (await checkedIn.json()).data;
  return { ...tenant, apiKey: created.key, apiKeyId: created.id, reservationId, checkInId: checkInId as string };
}

describe('the API hot path (cached keys, leased limits, one round trip)', () => {
  it('a key revoked in one process is refused by the next request in another that had it cached', async () => {
    const t = await tenantWithStay('Revoke hot');
    const processA = new ApiKeyCache();
    const processB = new ApiKeyCache();
    const principal = await processB.resolve(t.apiKey);
    expect(await processA.resolve(t.apiKey)).toEqual(principal);
    // Through this process's routes too, so its own cache holds the key.
    expect((await call(asHandler(rooms), t.apiKey, 'rooms')).status).toBe(200);

    await revokeApiKey({ tenantId: t.tenantId, apiKeyId: t.apiKeyId, actor: TEST_ACTOR });

    // Process B still has the identity cached; the operation's own transaction refuses it.
    expect(await processB.resolve(t.apiKey)).toEqual(principal);
    const scope = { tenantId: t.tenantId, apiKeyId: t.apiKeyId };
    await expect(listRooms(scope)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(listReservations({ ...scope, limit: 10 })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(issueCheckInKey({ ...scope, checkInId: t.checkInId, actor: TEST_ACTOR })).rejects.toMatchObject({
      code: 'unauthorized',
    });
    // A process that asks the database afresh does not find it.
    expect(await new ApiKeyCache().resolve(t.apiKey)).toBeNull();

    for (const response of [
      await call(asHandler(rooms), t.apiKey, 'rooms'),
      await call(asHandler(reservations), t.apiKey, 'reservations'),
      await call(asHandler(checkInKey), t.apiKey, `check-ins/${t.checkInId}/key`, t.checkInId, 'POST'),
    ]) {
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe('unauthorized');
    }
  });

  it("a key of tenant A never reads B's rooms, reservations or check-ins, even with B's ids", async () => {
    const a = await tenantWithStay('Hot A');
    const b = await tenantWithStay('Hot B');
    const roomsA = (await (await call(asHandler(rooms), a.apiKey, 'rooms')).json()).data as { id: string }[];
    expect(roomsA.map((r) => r.id).sort()).toEqual([...a.roomIds].sort());
    const byB = await call(asHandler(reservations), a.apiKey, `reservations?roomId=${b.roomIds[0]}`);
    expect(byB.status).toBe(200);
    expect((await byB.json()).data).toEqual([]);
    const all = (await (await call(asHandler(reservations), a.apiKey, 'reservations')).json()).data as { id: string }[];
    expect(all.map((r) => r.id)).toEqual([a.reservationId]);
    const key = await call(asHandler(checkInKey), a.apiKey, `check-ins/${b.checkInId}/key`, b.checkInId, 'POST');
    expect(key.status).toBe(404);
    // A's key with B's tenant (a forged principal) is refused inside the transaction.
    await expect(listRooms({ tenantId: b.tenantId, apiKeyId: a.apiKeyId })).rejects.toMatchObject({
      code: 'unauthorized',
    });
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select count(*)::int as n from access_keys where tenant_id = $1 and check_in_id = $2`,
      [b.tenantId, b.checkInId],
    );
    expect(rows[0].n).toBe(1);
    await admin.end();
  });

  it('an exhausted key answers 429 with retry-after', async () => {
    const t = await tenantWithStay('Hot limit');
    const admin = await adminClient();
    const { bucket, perSecond } = apiKeyBucket({ apiKeyId: t.apiKeyId, tenantId: t.tenantId, name: 'pms' });
    // The bucket is empty and 10 s of refill away from a token.
    await admin.query(
      `insert into rate_buckets (bucket, tokens, updated_at) values ($1, $2, clock_timestamp())
       on conflict (bucket) do update set tokens = excluded.tokens, updated_at = excluded.updated_at`,
      [bucket, -10 * perSecond],
    );
    const response = await call(asHandler(rooms), t.apiKey, 'rooms');
    expect(response.status).toBe(429);
    expect((await response.json()).error.code).toBe('rate_limited');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(10);
    await admin.end();
  });

  it('unknown and garbage keys are refused 401 and write nothing', async () => {
    const admin = await adminClient();
    const count = async () =>
      (
        await admin.query(
          `select (select count(*) from rate_buckets)::int as buckets,
            (select count(*) from api_keys where last_used_at is not null)::int as used`,
        )
      ).rows[0];
    const before = await count();
    const garbage = ['', 'nope', `uok_${'x'.repeat(44)}`, `uok_${'y'.repeat(300)}`, "uok_'; drop table api_keys; --"];
    for (const key of garbage) {
      const response = await call(asHandler(rooms), key, 'rooms');
      expect(response.status).toBe(401);
    }
    const noHeader = await rooms(new Request('http://test/api/v1/rooms'), { params: Promise.resolve({}) as never });
    expect(noHeader.status).toBe(401);
    expect(await count()).toEqual(before);
    await admin.end();
  });

  it('writes last_used_at off the request path, at most once a minute per key and process', async () => {
    const t = await createBookableTenant({ name: 'Hot touch', rooms: 1 });
    const created = await createApiKey({ tenantId: t.tenantId, name: 'touch', actor: TEST_ACTOR });
    const admin = await adminClient();
    const usedAt = async () =>
      (await admin.query('select last_used_at from api_keys where id = $1', [created.id])).rows[0]
        .last_used_at as Date | null;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
    const cache = new ApiKeyCache();
    const principal = (await cache.resolve(created.key))!;
    expect(await usedAt()).toBeNull(); // resolving writes nothing
    cache.touch(principal, 1_000_000);
    await settle();
    expect(await usedAt()).not.toBeNull();
    await admin.query(`update api_keys set last_used_at = '2000-01-01T00:00:00Z' where id = $1`, [created.id]);
    cache.touch(principal, 1_030_000);
    await settle();
    expect((await usedAt())!.toISOString()).toBe('2000-01-01T00:00:00.000Z');
    cache.touch(principal, 1_061_000);
    await settle();
    expect((await usedAt())!.getFullYear()).toBeGreaterThan(2000);
    await admin.end();
  });

  it('keeps at most a bounded number of keys per process', async () => {
    const t = await createBookableTenant({ name: 'Hot LRU', rooms: 1 });
    const cache = new ApiKeyCache(2);
    for (let i = 0; i < 3; i++) {
      const { key } = await createApiKey({ tenantId: t.tenantId, name: `k${i}`, actor: TEST_ACTOR });
      expect(await cache.resolve(key)).not.toBeNull();
    }
    expect(cache.size).toBe(2);
  });

  it('reads the limit from API_RATE_BURST and API_RATE_PER_SECOND, and refuses nonsense or less than API.md promises', () => {
    expect(apiKeyLimit({})).toEqual({ capacity: 300, perSecond: 100 });
    expect(apiKeyLimit({ API_RATE_BURST: '5000', API_RATE_PER_SECOND: '2500' })).toEqual({
      capacity: 5000,
      perSecond: 2500,
    });
    expect(() => apiKeyLimit({ API_RATE_BURST: '0' })).toThrow();
    expect(() => apiKeyLimit({ API_RATE_PER_SECOND: '10' })).toThrow();
    expect(() => apiKeyLimit({ API_RATE_PER_SECOND: 'lots' })).toThrow();
  });
});
