import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import {
  callPublic,
  createBookingSite,
  testClientAddress,
  trustTestClientAddresses,
} from '../../tooling/testing/booking-site';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address';
import { PUBLIC_BOOKING_ROUTES } from './public-routes';
import { handlerOf } from '../../tooling/testing/route-handlers';
import { API_ROUTES } from './routes';
import { routeHandler } from './router';

type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

let admin: pg.Client;
let apiKey: string;
let tenantId: string;

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const BODIES: [string, string, string][] = [
  ['wrong content type', 'text/plain', '{"reason":"x"}'],
  ['form encoded', 'application/x-www-form-urlencoded', 'reason=x&guest=y'],
  ['broken JSON', 'application/json', '{"reason": '],
  ['not an object', 'application/json', '"just a string"'],
  ['null', 'application/json', 'null'],
  ['deeply nested', 'application/json', deep(20_000)],
  [
    'odd unicode',
    'application/json',
    JSON.stringify({
      reason: '\u202e\u0000\ud800 ﷽ 🗝️',
      guest: { name: '\u0000' },
      reservations: [{ roomId: '\ud83d', startsAt: '２０２７-01-01', endsAt: 'tomorrow' }],
    }),
  ],
  [
    'impossible dates',
    'application/json',
    JSON.stringify({
      guest: { name: 'x' },
      reservations: [
        {
          roomId: '00000000-0000-4000-8000-000000000000',
          startsAt: '2027-02-30T25:61:00Z',
          endsAt: '2027-13-01T00:00:00Z',
        },
      ],
    }),
  ],
  [
    'SQL metacharacters',
    'application/json',
    JSON.stringify({
      reason: "'); drop table access_keys; --",
      guest: { name: "Robert'); DROP TABLE guests;--" },
      reservations: [{ roomId: "' or 1=1 --", startsAt: "'", endsAt: ';' }],
    }),
  ],
  ['huge', 'application/json', JSON.stringify({ reason: 'x'.repeat(300 * 1024) })],
  [
    'prototype pollution',
    'application/json',
    '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"reason":"x"}',
  ],
];
const IDS = [
  "' or '1'='1",
  '../../etc/passwd',
  '%00',
  'x'.repeat(5000),
  '00000000-0000-0000-0000-00000000000g',
  '１２３',
];
const QUERIES = [
  'limit=-1',
  'limit=1e9',
  'limit=%00',
  "cursor='",
  'cursor=eyJhIjoxfQ',
  'from=2027-02-30T00:00:00Z',
  "roomId=' or 1=1",
  'status=%F0%9F%94%91',
  'from=x&from=y',
  'provider=ftp',
  'subjectId=1',
];

async function counts(): Promise<Record<string, number>> {
  const { rows } = await admin.query<{ relname: string; n: string }>(
    `select c.relname, (xpath('/row/n/text()', query_to_xml('select count(*) as n from public.' || quote_ident(c.relname), false, true, '')))[1]::text as n
     from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and c.relname not in ('rate_limits', 'rate_buckets', 'api_keys', 'worker_heartbeats')`,
  );
  return Object.fromEntries(rows.map((r) => [r.relname, Number(r.n)]));
}

beforeAll(async () => {
  // Each call its own client address, so the public routes' per-address limits (counted before a body is read)
  // answer every call as they would a stranger's first.
  trustTestClientAddresses();
  admin = await adminClient();
  const t = await createBookableTenant();
  tenantId = t.tenantId;
  apiKey = (await createApiKey({ tenantId, name: 'sweep', actor: TEST_ACTOR })).key;
});
afterAll(async () => {
  await admin.end();
});

describe('malformed input on every route', () => {
  it('is answered 4xx, never 5xx, and writes nothing', async () => {
    const before = await counts();
    const failures: string[] = [];
    const check = async (label: string, response: Response) => {
      if (response.status < 400 || response.status >= 500)
        failures.push(`${label} → ${response.status} ${(await response.text()).slice(0, 120)}`);
      else {
        const body = await response.json().catch(() => null);
        if (!body?.error?.code) failures.push(`${label} → ${response.status} without an error code`);
      }
    };
    for (const route of API_ROUTES) {
      const handler = (await handlerOf(route)) as Handler;
      const key = `${route.method} ${route.path}`;
      const ids = route.path.includes('{id}') ? IDS : [''];
      for (const id of ids) {
        const url = `http://t/api/v1${route.path.replace('{id}', encodeURIComponent(id))}`;
        const params = Promise.resolve((id ? { id } : {}) as Record<string, string>);
        if (route.method === 'GET') {
          for (const query of route.query ? QUERIES : [id ? '' : 'x=1']) {
            if (!id && !route.query) continue;
            await check(
              `${key} id=${id.slice(0, 20)} ?${query}`,
              await handler(new Request(`${url}?${query}`, { headers: { authorization: `Bearer ${apiKey}` } }), {
                params,
              }),
            );
          }
          if (id)
            await check(
              `${key} id=${id.slice(0, 20)}`,
              await handler(new Request(url, { headers: { authorization: `Bearer ${apiKey}` } }), { params }),
            );
        } else {
          const bodies: [string, string, string][] =
            route.method === 'DELETE' ? [['no body', 'application/json', '']] : BODIES;
          for (const [label, type, body] of bodies) {
            if (!id && route.path.includes('{id}')) continue;
            const response = await handler(
              new Request(url, {
                method: route.method,
                headers: { authorization: `Bearer ${apiKey}`, 'content-type': type },
                body: body || undefined,
              }),
              { params: id ? params : Promise.resolve({}) },
            );
            // A body the route never reads (check-in, issue key) with a bad id is still a 4xx; with no id problem it may succeed.
            await check(`${key} id=${id.slice(0, 20)} ${label}`, response);
          }
        }
      }
    }
    // The public endpoints: webhooks and the guest key.
    const publicRoutes: [string, () => Promise<{ POST: Handler }>, Record<string, string>][] = [
      [
        'stripe',
        () => Promise.resolve({ POST: routeHandler('POST', '/api/webhooks/stripe') as unknown as Handler }),
        {},
      ],
      [
        'calendly',
        () =>
          Promise.resolve({ POST: routeHandler('POST', '/api/webhooks/calendly/{tenantId}') as unknown as Handler }),
        { tenantId },
      ],
      [
        'cal',
        () => Promise.resolve({ POST: routeHandler('POST', '/api/webhooks/cal/{tenantId}') as unknown as Handler }),
        { tenantId },
      ],
      [
        'acuity',
        () => Promise.resolve({ POST: routeHandler('POST', '/api/webhooks/acuity/{tenantId}') as unknown as Handler }),
        { tenantId },
      ],
      [
        'seam',
        () => Promise.resolve({ POST: routeHandler('POST', '/api/webhooks/seam/{tenantId}') as unknown as Handler }),
        { tenantId },
      ],
      [
        'guest',
        () => Promise.resolve({ POST: routeHandler('POST', '/api/guest/{token}/key') as unknown as Handler }),
        { token: "' or 1=1 --" },
      ],
    ];
    process.env.STRIPE_WEBHOOK_SECRET = 'whsec_sweep';
    for (const [name, load, params] of publicRoutes) {
      const { POST } = await load();
      for (const [label, type, body] of BODIES) {
        for (const headers of [
          {} as Record<string, string>,
          {
            'stripe-signature': 't=1,v1=00',
            'calendly-webhook-signature': 't=1,v1=' + '0'.repeat(64),
            'x-cal-signature-256': '0'.repeat(64),
            'x-acuity-signature': 'A'.repeat(43) + '=',
            'svix-id': 'msg_sweep',
            'svix-timestamp': String(Math.floor(Date.now() / 1000)),
            'svix-signature': 'v1,' + 'A'.repeat(44),
          },
        ]) {
          await check(
            `${name} ${label}`,
            await POST(
              new Request('http://t/x', { method: 'POST', headers: { 'content-type': type, ...headers }, body }),
              { params: Promise.resolve(params) },
            ),
          );
        }
      }
    }
    delete process.env.STRIPE_WEBHOOK_SECRET;
    expect(failures).toEqual([]);
    expect(await counts()).toEqual(before);
  }, 120_000);
});

describe('malformed input on the public booking API', () => {
  it('is answered 4xx, never 5xx, and writes nothing', async () => {
    const site = await createBookingSite(admin);
    const before = await counts();
    const failures: string[] = [];
    const slugs = [site.slug, ...IDS];
    for (const route of PUBLIC_BOOKING_ROUTES) {
      const handler = routeHandler(route.method, route.path);
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const values = (name: string) => (name === 'slug' ? slugs : [...IDS, '00000000-0000-4000-8000-000000000000']);
      const paramSets = names.reduce<Record<string, string>[]>(
        (sets, name) => sets.flatMap((set) => values(name).map((value) => ({ ...set, [name]: value }))),
        [{}],
      );
      for (const params of paramSets) {
        const url = `http://t${route.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(params[n]!))}`;
        const label = `${route.method} ${route.path} ${JSON.stringify(params).slice(0, 60)}`;
        const address = { [CLIENT_ADDRESS_HEADER]: testClientAddress() };
        const call = (query: string, init: RequestInit = {}) =>
          handler(new Request(`${url}${query}`, { ...init, headers: { ...address, ...init.headers } }), {
            params: Promise.resolve(params),
          });
        const answers: [string, Response][] = [];
        if (route.method === 'GET')
          for (const query of ['', ...QUERIES.map((q) => `?${q}`)])
            answers.push([`${label} ${query}`, await call(query)]);
        else
          for (const [name, type, body] of BODIES)
            answers.push([
              `${label} ${name}`,
              await call('', { method: 'POST', headers: { 'content-type': type }, body }),
            ]);
        for (const [what, response] of answers) {
          const error = response.status >= 400 ? await response.json().catch(() => null) : null;
          // A published site's own page answers 200; everything else here is a refusal with a code.
          if (response.status < 400 && !(route.method === 'GET' && params.slug === site.slug))
            failures.push(`${what} → ${response.status}`);
          else if (response.status >= 500 || (response.status >= 400 && !error?.error?.code))
            failures.push(`${what} → ${response.status} ${JSON.stringify(error).slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await counts()).toEqual(before);
  }, 120_000);
});

// Dates at the ends of what JavaScript, ISO 8601 and PostgreSQL can write: each pair a `from` and a `to`.
const EXTREME_DAYS: [string, string][] = [
  ['9999-12-30', '9999-12-31'],
  ['2027-01-01', '9999-12-31'],
  ['0001-01-01', '0001-01-02'],
  ['0000-01-01', '0000-01-02'],
  ['1969-12-31', '1970-01-01'],
  ['275760-09-12', '275760-09-13'],
  ['+010000-01-01', '+010000-01-02'],
];
const EXTREME_INSTANTS = EXTREME_DAYS.map(([from, to]) => [`${from}T00:00:00Z`, `${to}T00:00:00Z`] as const);
/** Each extreme instant alone, for the `from` and the `to` of a list's query. */
const LONE_INSTANTS = [...new Set(EXTREME_INSTANTS.flat())].filter((at) => !at.startsWith('2027'));

type Answer = { status: number; body: { error?: { code?: string; issues?: unknown[] } } | null };

describe('extreme dates on every route that takes a date', () => {
  it('are refused 400 invalid_request with issues, and nothing is written', async () => {
    const site = await createBookingSite(admin);
    const key = (await createApiKey({ tenantId: site.tenantId, name: 'dates', actor: TEST_ACTOR })).key;
    const v1 = async (
      method: 'GET' | 'POST' | 'PATCH',
      path: string,
      options: { body?: unknown; query?: string; id?: string },
    ) => {
      const params: Record<string, string> = options.id ? { id: options.id } : {};
      const response = await routeHandler(method, `/api/v1${path}`)(
        new Request(`http://t/api/v1${path.replace('{id}', options.id ?? '')}${options.query ?? ''}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        }),
        { params: Promise.resolve(params) },
      );
      return { status: response.status, body: await response.json().catch(() => null) };
    };
    const slug = { slug: site.slug };
    const booked = await v1('POST', '/booking-groups', {
      body: {
        guest: { name: 'Dates' },
        reservations: [{ roomId: site.roomIds[0], startsAt: '2027-03-01T06:00:00Z', endsAt: '2027-03-02T01:00:00Z' }],
      },
    });
    const reservationId: string = booked.body.data.reservations[0].id;
    // Each booking request its own email, so the per-email limit never answers first.
    let asked = 0;
    const person = () => ({ guest: { name: 'Aiko', email: `aiko-${++asked}@example.com` }, acceptTerms: true });
    const before = await counts();
    const failures: string[] = [];
    const check = (label: string, answer: Answer) => {
      const error = answer.body?.error;
      if (answer.status !== 400 || error?.code !== 'invalid_request' || !error.issues?.length)
        failures.push(`${label} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
    };
    for (const [from, to] of EXTREME_DAYS) {
      const query = `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
      check(
        `availability ${from}..${to}`,
        await callPublic('GET', '/api/public/facilities/{slug}/availability', slug, { query }),
      );
    }
    const publicStays = [
      ...EXTREME_DAYS.map(([checkIn, checkOut]) => ({ checkIn, checkOut })),
      ...EXTREME_INSTANTS.map(([startsAt, endsAt]) => ({ startsAt, endsAt })),
    ];
    for (const stay of publicStays) {
      const body = { roomTypeId: site.roomTypeId, ...stay };
      const label = Object.values(stay).join('..');
      check(`quote ${label}`, await callPublic('POST', '/api/public/facilities/{slug}/quotes', slug, { body }));
      check(
        `booking request ${label}`,
        await callPublic('POST', '/api/public/facilities/{slug}/booking-requests', slug, {
          body: { ...body, ...person() },
        }),
      );
    }
    for (const [from, to] of EXTREME_INSTANTS) {
      const stay = { startsAt: from, endsAt: to };
      const reservations = [{ roomId: site.roomIds[1], ...stay }];
      check(
        `POST /booking-groups ${from}..${to}`,
        await v1('POST', '/booking-groups', { body: { guest: { name: 'D' }, reservations } }),
      );
      check(
        `PATCH /reservations/{id} ${from}..${to}`,
        await v1('PATCH', '/reservations/{id}', { id: reservationId, body: stay }),
      );
      check(
        `PATCH /reservations/{id} endsAt ${to}`,
        await v1('PATCH', '/reservations/{id}', { id: reservationId, body: { endsAt: to } }),
      );
      check(
        `POST /rooms/{id}/staff-codes ${from}..${to}`,
        await v1('POST', '/rooms/{id}/staff-codes', {
          id: site.roomIds[1],
          body: { label: 'Cleaning', purpose: 'housekeeping', ...stay },
        }),
      );
    }
    for (const at of LONE_INSTANTS)
      for (const path of ['/reservations', '/entries', '/webhook-events'])
        for (const query of [`from=${encodeURIComponent(at)}`, `to=${encodeURIComponent(at)}`])
          check(`GET ${path}?${query}`, await v1('GET', path, { query: `?${query}` }));
    expect(failures).toEqual([]);
    expect(await counts()).toEqual(before);
  }, 120_000);
});
