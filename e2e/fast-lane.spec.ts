import { request as http } from 'node:http';
import { expect, test } from './fixtures';
import { cli, services } from './helpers';

// The web server's fast lane (scripts/web-server.mjs) answers the hot API addresses and the webhooks
// itself, with the same route handlers Next.js runs. What a caller sees must not tell the two apart:
// the same statuses, bodies, request ids and security headers, and the same refusals.

const SECURITY = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

test('hot API addresses answer as the rest of the API does, headers included', async ({ request, tenant }) => {
  const { key } = cli('api-key-create', '--tenant', tenant.id, '--name', 'fast lane') as { key: string };
  const auth = { authorization: `Bearer ${key}` };

  const rooms = await request.get('/api/v1/rooms', { headers: { ...auth, 'x-request-id': 'fast-lane-0001' } });
  expect(rooms.status()).toBe(200);
  expect(rooms.headers()).toMatchObject({ ...SECURITY, 'x-request-id': 'fast-lane-0001', 'cache-control': 'no-store' });
  expect(rooms.headers()['content-type']).toMatch(/^application\/json/);
  expect(((await rooms.json()) as { data: { id: string }[] }).data.map((room) => room.id)).toEqual(
    tenant.rooms.map((room) => room.id),
  );

  // An address the proxy serves (Next.js's pipeline) carries the same security headers.
  const other = await request.get('/api/v1/openapi.json');
  expect(other.status()).toBe(200);
  expect(other.headers()).toMatchObject(SECURITY);

  // A Host header of the client's choosing changes nothing.
  const forgedHost = await request.get('/api/v1/rooms', { headers: { ...auth, host: 'evil.example' } });
  expect(forgedHost.status()).toBe(200);
  expect(await forgedHost.json()).toEqual(await rooms.json());

  const listed = await request.get('/api/v1/reservations?limit=5', { headers: auth });
  expect(listed.status()).toBe(200);
  expect(await listed.json()).toMatchObject({ data: [] });

  // Refusals: a bad query, a forged key, another method, a malformed id.
  const bad = await request.get('/api/v1/reservations?limit=5&limit=6', { headers: auth });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.code).toBe('invalid_request');
  const forged = await request.get('/api/v1/rooms', { headers: { authorization: 'Bearer uk_live_forged' } });
  expect(forged.status()).toBe(401);
  expect(forged.headers()).toMatchObject(SECURITY);
  const deleted = await request.delete('/api/v1/rooms', { headers: auth });
  expect(deleted.status()).toBe(405);
  expect(deleted.headers().allow).toBe('GET');
  const malformed = await request.post('/api/v1/check-ins/not-a-uuid/key', { headers: auth });
  expect(malformed.status()).toBe(400);
  expect(malformed.headers()['x-request-id']).toBeTruthy();

  // Methods no route exports (HEAD, OPTIONS) and paths not in their plain form go to Next.js.
  const head = await request.head('/api/v1/rooms', { headers: auth });
  expect(head.status()).toBe(200);
  const slash = await request.get('/api/v1/rooms/', { headers: auth, maxRedirects: 0 });
  expect(slash.status()).toBe(308);
});

test('a webhook body over the limit is refused with 413, and the connection stays usable or is closed', async ({
  tenant,
}) => {
  const url = new URL(`/api/webhooks/calendly/${tenant.id}`, services().appUrl);
  // Declared (content-length) or streamed (chunked, no length): the server must not wait for a body without end.
  const send = (body: Buffer, chunked = false) =>
    new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = http(
        url,
        {
          method: 'POST',
          headers: chunked
            ? { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }
            : { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
        },
      );
      req.on('error', reject);
      if (!chunked) return void req.end(body);
      // Chunks of 16 KiB, never ended: the answer must come once the limit is passed.
      for (let at = 0; at < body.length; at += 16 * 1024) req.write(body.subarray(at, at + 16 * 1024));
    });
  const huge = await send(Buffer.alloc(300 * 1024, 0x20));
  expect(huge.status).toBe(413);
  expect(JSON.parse(huge.body).error.code).toBe('payload_too_large');
  const streamed = await send(Buffer.alloc(300 * 1024, 0x20), true);
  expect(streamed.status).toBe(413);
  expect(streamed.connection).toBe('close');
  // An unsigned delivery of a normal size: refused for its signature, not for its size.
  const small = await send(Buffer.from('{}'));
  expect(small.status).toBe(400);
  expect(JSON.parse(small.body).error.code).toBe('invalid_signature');
});

test('the guest page’s status poll answers in the fast lane as it did through Next.js: ETag, 304, refusals', async ({
  request,
  tenant,
}) => {
  const { key } = cli('api-key-create', '--tenant', tenant.id, '--name', 'fast lane poll') as { key: string };
  const startsAt = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000);
  const booked = await request.post('/api/v1/booking-groups', {
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    data: JSON.stringify({
      guest: { name: `Poll Guest ${Date.now()}` },
      reservations: [{ roomId: tenant.rooms[0]!.id, startsAt, endsAt: new Date(startsAt.getTime() + 86_400_000) }],
    }),
  });
  expect(booked.status()).toBe(201);
  const { guestUrl } = ((await booked.json()) as { data: { reservations: { guestUrl: string }[] } }).data
    .reservations[0]!;
  const token = new URL(guestUrl).pathname.split('/').pop()!;
  const path = `/api/guest/${token}/status`;

  const first = await request.get(path, { headers: { 'x-request-id': 'fast-lane-poll-01' } });
  expect(first.status()).toBe(200);
  expect(first.headers()).toMatchObject({
    ...SECURITY,
    'x-request-id': 'fast-lane-poll-01',
    'cache-control': 'no-store',
  });
  expect(['held', 'confirmed']).toContain(
    ((await first.json()) as { data: { stay: { status: string } } }).data.stay.status,
  );

  // The worker may still be changing the stay (its key, its payment hold) right after the booking: a changed
  // state answers 200 with a new ETag; once nothing changes, the same ETag answers 304 with no body.
  let etag = first.headers().etag!;
  expect(etag).toBeTruthy();
  let again = await request.get(path, { headers: { 'if-none-match': etag } });
  for (let tries = 0; again.status() === 200 && tries < 40; tries++) {
    expect(again.headers().etag).not.toBe(etag);
    etag = again.headers().etag!;
    await new Promise((resolve) => setTimeout(resolve, 250));
    again = await request.get(path, { headers: { 'if-none-match': etag } });
  }
  expect(again.status()).toBe(304);
  expect(again.headers().etag).toBe(etag);
  expect((await again.body()).length).toBe(0);

  // An unknown link, another method, a path not in its plain form (that one is Next.js's).
  const unknown = await request.get(`/api/guest/${'A'.repeat(43)}/status`);
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe('not_found');
  const posted = await request.post(path);
  expect(posted.status()).toBe(405);
  expect(posted.headers().allow).toBe('GET');
  expect(posted.headers()['x-request-id']).toBeTruthy();
  const slash = await request.get(`${path}/`, { maxRedirects: 0 });
  expect(slash.status()).toBe(308);
});
