import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant } from '../../tooling/testing/fixtures';
import { guestTokenFor } from '../auth/guest-links';
import { readRawBody } from '../http/body';
import { apiFetch, ROUTER_ROUTES } from './router';
import { fastLane, inFastLane } from './fast-lane.mjs';
import { withRequest } from './http';

const ID = '7f1c2a9e-0000-4000-8000-000000000001';

describe('the fast lane (scripts/web-server.mjs)', () => {
  it('hands the router every address below its prefixes: the API, the providers’ webhooks, the guest page’s calls', () => {
    for (const url of [
      '/api/v1/rooms',
      '/api/v1/reservations?status=booked&limit=5',
      `/api/v1/check-ins/${ID}/key`,
      `/api/v1/reservations/${ID}`,
      `/api/v1/rooms/${ID}/staff-codes`,
      '/api/v1/openapi.json',
      '/api/webhooks/stripe',
      `/api/webhooks/calendly/${ID}`,
      `/api/webhooks/cal/${ID}`,
      `/api/webhooks/acuity/${ID}`,
      `/api/webhooks/seam/${ID}`,
      '/api/guest/Abc-_123/status',
      '/api/guest/abc/key',
      // Addresses the router does not serve are its to refuse (a JSON 404), and a malformed id its 400.
      '/api/v1/roomsx',
      '/api/webhooks/paypal',
      `/api/webhooks/calendly/${ID}/extra`,
      '/api/v1/check-ins/not%20a%20uuid/key',
    ]) {
      expect(inFastLane(url), url).toBe(true);
    }
    for (const route of ROUTER_ROUTES) expect(inFastLane(route.path.replace(/\{\w+\}/g, ID)), route.path).toBe(true);
  });

  it('leaves everything else to Next.js: pages, its own routes, and any path not in its plain form', () => {
    for (const url of [
      '/',
      '/desk',
      '/api',
      '/api/v1',
      '/api/health',
      '/api/auth/session',
      '/api/ping',
      '/api/pingx',
      '/api/v1/rooms/',
      `/api/v1/check-ins/${ID}/key/`,
      '/api/v1/check-ins//key',
      '/api/v1/check-ins/%2e%2e/key',
      '/api/v1/check-ins/a%2fb/key',
      '/api/v1/check-ins/%E0%A4%A/key',
      '/api/webhooks/stripe/',
      '/API/v1/rooms',
      '//api/v1/rooms',
      '/api/v1/../v1/rooms',
      '/api/v1/./rooms',
      '/api/guest//status',
      '/api/guest/%2e%2e/status',
      '/api/v1x/rooms',
    ]) {
      expect(inFastLane(url), url).toBe(false);
    }
  });

  it('reaches the router through its documented fetch, with no Next.js internals (decision 023)', () => {
    const server = readFileSync('scripts/web-server.mjs', 'utf8');
    const lane = readFileSync('lib/api/fast-lane.mjs', 'utf8');
    expect(server).toContain("tsImport('../lib/api/router.ts'");
    expect(lane).toContain('apiFetch(request)');
    expect(server + lane).not.toMatch(/routeModule|userland|ensureUserland|server\/app/);
  });
});

type Lane = { url: string; bytesRead: number[]; close: () => Promise<void> };

/** A node:http server on a free port that serves the fast lane with `fetch` (Next.js's part answers 418). */
async function startLane(fetch: (request: Request) => Promise<Response>): Promise<Lane> {
  const serve = fastLane({ origin: 'http://127.0.0.1', router: async () => ({ apiFetch: fetch }) });
  // How many bytes the server had taken off each connection when its answer was written.
  const bytesRead: number[] = [];
  const server = http.createServer((req, res) => {
    const socket = req.socket;
    res.on('finish', () => bytesRead.push(socket.bytesRead));
    if (!serve(req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytesRead,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Sent = { status: number; connection: string | undefined; body: string };

/**
 * Sends `size` bytes of body (JSON whitespace) as fast as the server takes them, declared with content-length or
 * chunked; `end: false` never ends a chunked body. Resolves with the answer, whatever became of the rest.
 */
function send(
  url: string,
  options: { method?: string; size: number; chunked?: boolean; end?: boolean; headers?: Record<string, string> },
): Promise<Sent> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      url,
      {
        method: options.method ?? 'PUT',
        headers: {
          'content-type': 'application/json',
          ...(options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(options.size) }),
          ...options.headers,
        },
      },
      (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => (body += text));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body });
        });
      },
    );
    // Writes after the server answered and closed fail: the answer is what counts.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    let written = 0;
    const write = () => {
      while (!answered && written < options.size) {
        const part = chunk.subarray(0, Math.min(chunk.length, options.size - written));
        written += part.length;
        if (!req.write(part)) return void req.once('drain', write);
      }
      if (!answered && options.end !== false) req.end();
    };
    write();
  });
}

describe('the fast lane’s request bodies', () => {
  let admin: Awaited<ReturnType<typeof adminClient>>;
  beforeAll(async () => {
    admin = await adminClient();
  });
  afterAll(() => admin.end());

  it('streams the register’s body to the router: an unknown link is a 404 before the lane reads its body', async () => {
    const lane = await startLane(apiFetch);
    try {
      const path = `/api/guest/${guestTokenFor(randomUUID())}/registration`;
      // What the lane had taken off the connection when the route answered: the headers and what the socket held,
      // nowhere near the megabytes sent.
      const read = (i: number) => (lane.bytesRead[i]! < 1024 * 1024 ? 'under 1 MiB' : lane.bytesRead[i]);
      const declared = await send(lane.url + path, { size: 8 * 1024 * 1024 });
      expect({ status: declared.status, connection: declared.connection, read: read(0) }).toEqual({
        status: 404,
        connection: 'close',
        read: 'under 1 MiB',
      });
      expect(JSON.parse(declared.body).error.code).toBe('not_found');
      // A body that never ends gets the same answer.
      const endless = await send(lane.url + path, { size: 1024 * 1024, chunked: true, end: false });
      expect({ status: endless.status, connection: endless.connection, read: read(1) }).toEqual({
        status: 404,
        connection: 'close',
        read: 'under 1 MiB',
      });
    } finally {
      await lane.close();
    }
  });

  it('hands a live link’s register its whole body through the stream', async () => {
    const lane = await startLane(apiFetch);
    try {
      const { tenantId, facilityId, roomIds } = await createBookableTenant({ name: 'Lane register' });
      await admin.query(`update facilities set registration = 'jp' where tenant_id = $1 and id = $2`, [
        tenantId,
        facilityId,
      ]);
      const { token, reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
      const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3 * 1024 * 1024, 7)]);
      const body = JSON.stringify({
        guests: [
          {
            name: 'Ada Lovelace',
            address: '12 St James Square, London',
            nationality: 'GB',
            passportNumber: 'P1234567',
            passportImage: `data:image/jpeg;base64,${photo.toString('base64')}`,
          },
        ],
      });
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          `${lane.url}/api/guest/${token}/registration`,
          { method: 'PUT', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(answer).toEqual({ status: 200, body: JSON.stringify({ data: { complete: true } }) });
      const { rows } = await admin.query(
        `select passport_image_type, octet_length(passport_image) > $2 as whole from guest_registrations where reservation_id = $1`,
        [reservationId, photo.length],
      );
      expect(rows).toEqual([{ passport_image_type: 'image/jpeg', whole: true }]);
    } finally {
      await lane.close();
    }
  });

  it('answers 413 to a streamed body over the route’s limit, and closes the connection', async () => {
    // A route that reads its body with a 1 MiB limit, at the register's address (the one streamed).
    const capped = withRequest(async ({ request }) => {
      const raw = await readRawBody(request, 1024 * 1024);
      return new Response(String(raw.byteLength));
    });
    const lane = await startLane((request) => capped(request, { params: Promise.resolve({}) }));
    try {
      const path = `/api/guest/${guestTokenFor(randomUUID())}/registration`;
      const small = await send(lane.url + path, { size: 512 * 1024, chunked: true });
      expect({ status: small.status, body: small.body }).toEqual({ status: 200, body: String(512 * 1024) });
      const over = await send(lane.url + path, { size: 4 * 1024 * 1024, chunked: true, end: false });
      expect({ status: over.status, connection: over.connection }).toEqual({ status: 413, connection: 'close' });
      expect(JSON.parse(over.body).error.code).toBe('payload_too_large');
    } finally {
      await lane.close();
    }
  });

  it('reads the other routes’ bodies whole before the router runs, and keeps their connections', async () => {
    // The webhooks' path: buffered up to 256 KiB (their benchmarks measure it so), so a route that answers without
    // reading leaves nothing unread on the connection.
    const lane = await startLane(async () => new Response('ok'));
    try {
      const answer = await send(`${lane.url}/api/webhooks/stripe`, { method: 'POST', size: 100 * 1024 });
      expect({ status: answer.status, connection: answer.connection }).toEqual({
        status: 200,
        connection: 'keep-alive',
      });
      expect(lane.bytesRead[0]).toBeGreaterThan(100 * 1024);
    } finally {
      await lane.close();
    }
  });
});
