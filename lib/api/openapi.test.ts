import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS } from './http';
import { openApiDocument } from './openapi';
import { API_EXAMPLES } from './openapi-examples';
import { API_ROUTES } from './routes';
import { ROUTER_ROUTES, routeHandler } from './router';

const openApiRoute = routeHandler('GET', '/api/v1/openapi.json');

describe('the route list and the OpenAPI document', () => {
  it('is what the router serves below /api/v1, and nothing else (the openapi document itself aside)', () => {
    const listed = API_ROUTES.map((r) => `${r.method} /api/v1${r.path}`).sort();
    const served = ROUTER_ROUTES.filter((r) => r.path.startsWith('/api/v1/') && r.path !== '/api/v1/openapi.json')
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(served).toEqual(listed);
  });

  it('describes every route with unique operation ids, request schemas and the error format', async () => {
    const response = await openApiRoute(new Request('http://localhost:3000/api/v1/openapi.json'), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { operationId: string; requestBody?: unknown; responses: Record<string, unknown> }>
      >;
    };
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.entries(methods).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })),
    );
    expect(operations.map((o) => o.key).sort()).toEqual(API_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
    // Every error a route declares is documented under its status (409 conflict, 429 rate_limited … as well).
    const missing = API_ROUTES.flatMap((route) =>
      route.errors
        .filter((code) => {
          const response = doc.paths[route.path]![route.method.toLowerCase()]!.responses[String(ERROR_STATUS[code])];
          return !JSON.stringify(response ?? {}).includes(code);
        })
        .map((code) => `${route.method} ${route.path} ${code}`),
    );
    expect(missing).toEqual([]);
    expect(doc.paths['/ical-feeds']!.post!.responses['409']).toMatchObject({ description: 'Error: conflict' });
    const create = doc.paths['/booking-groups']!.post!;
    expect(JSON.stringify(create.requestBody)).toContain('"maxItems":50');
    expect(create.responses).toHaveProperty('409');
    expect(openApiDocument('https://unlock.example')).toMatchObject({
      servers: [{ url: 'https://unlock.example/api/v1' }],
    });
  });
});

describe('the answers of the listed routes', () => {
  it('are lists as API.md’s conventions say: every answer whose data is an array also has nextCursor', () => {
    const bare = API_ROUTES.filter((route) => {
      const shape = (route.success.schema as z.ZodObject | undefined)?.shape;
      return shape?.data instanceof z.ZodArray && !('nextCursor' in shape);
    }).map((route) => `${route.method} ${route.path}`);
    expect(bare).toEqual([]);
  });
});

/** Every `$ref` in a JSON value, with where it is. */
function refsIn(value: unknown, at = '#'): { at: string; ref: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refsIn(item, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [{ at, ref: inner }] : refsIn(inner, `${at}/${key}`),
  );
}

/** What a local JSON pointer (`#/a/b`) names in a document, or undefined. */
function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

describe('the served OpenAPI document', () => {
  const served = async () => {
    const response = await openApiRoute(new Request('http://localhost:3000/api/v1/openapi.json'), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown> & {
      servers: { url: string }[];
      components: { schemas: Record<string, unknown> };
    };
  };

  it('resolves every $ref it holds, each to a schema in components.schemas', async () => {
    const doc = await served();
    const refs = refsIn(doc);
    // The shared shapes (Reservation, Key, Room, …) are referenced, not copied.
    expect(refs.length).toBeGreaterThan(50);
    const unresolved = refs.filter(({ ref }) => {
      const target = resolvePointer(doc, ref);
      return !ref.startsWith('#/components/schemas/') || target === null || typeof target !== 'object';
    });
    expect(unresolved).toEqual([]);
    for (const name of ['Error', 'Reservation', 'Key', 'Room', 'BookingGroup', 'Message'])
      expect(doc.components.schemas[name], name).toMatchObject({ type: 'object' });
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it('names a server relative to itself, so "Test Request" calls the address the page is on', async () => {
    const doc = await served();
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    // Relative to the document's own address, as OpenAPI resolves it, that is this host's /api/v1.
    expect(new URL(doc.servers[0]!.url, 'http://127.0.0.1:4321/api/v1/openapi.json').href).toBe(
      'http://127.0.0.1:4321/api/v1',
    );
  });
});

describe('the examples in the OpenAPI document', () => {
  const routeOf = (key: string) => API_ROUTES.find((r) => `${r.method} ${r.path}` === key);

  it('name listed routes and cover the main operations', () => {
    expect(Object.keys(API_EXAMPLES).filter((key) => !routeOf(key))).toEqual([]);
    for (const key of ['POST /reservations/{id}/check-in', 'POST /booking-groups', 'POST /keys/{id}/revoke'])
      expect(API_EXAMPLES[key]?.request, key).toBeDefined();
    for (const key of ['GET /rooms', 'GET /reservations', 'POST /check-ins/{id}/key', 'POST /booking-groups'])
      expect(API_EXAMPLES[key]?.response, key).toBeDefined();
  });

  it('are accepted by the schemas that check requests, and answers have exactly the documented shape', () => {
    for (const [key, examples] of Object.entries(API_EXAMPLES)) {
      const route = routeOf(key)!;
      for (const [name, { value }] of Object.entries(examples.request ?? {})) {
        expect({ key, name, ok: route.body?.safeParse(value).success }).toEqual({ key, name, ok: true });
      }
      const { id, ...query } = examples.parameters ?? {};
      if (id !== undefined) expect(z.uuid().safeParse(id).success, `${key} id`).toBe(true);
      if (Object.keys(query).length) expect(route.query?.safeParse(query).success, `${key} query`).toBe(true);
      // Response schemas strip unknown keys: an example with an undocumented field would not survive the parse.
      if (examples.response !== undefined)
        expect(route.success.schema?.parse(examples.response), key).toEqual(examples.response);
    }
  });

  it('appear in the document beside the schemas they illustrate', () => {
    type TMedia = { examples?: Record<string, { value: unknown }>; example?: unknown };
    type TOperation = {
      parameters: { name: string; example?: string }[];
      requestBody?: { content: Record<string, TMedia> };
      responses: Record<string, { content?: Record<string, TMedia> }>;
    };
    const doc = openApiDocument('http://localhost:3000') as { paths: Record<string, Record<string, TOperation>> };
    const checkIn = doc.paths['/reservations/{id}/check-in']!.post!;
    expect(checkIn.requestBody?.content['application/json']?.examples?.early?.value).toEqual({ early: true });
    expect(checkIn.responses['200']?.content?.['application/json']?.example).toMatchObject({
      data: { key: { status: 'active' } },
    });
    expect(checkIn.parameters.find((p) => p.name === 'id')?.example).toMatch(/^[0-9a-f-]{36}$/);
    const list = doc.paths['/reservations']!.get!;
    expect(list.parameters.find((p) => p.name === 'from')?.example).toBe('2026-12-01T00:00:00Z');
  });
});
