import { describe, expect, it } from 'vitest';
import { GET as openApiRoute } from '@/app/api/v1/openapi.json/route';
import { routeFilesOnDisk } from '../testing/route-handlers';
import { openApiDocument } from './openapi';
import { API_ROUTES } from './routes';

describe('the route list and the OpenAPI document', () => {
  it('lists every route file under app/api/v1, and nothing else (the openapi document itself aside)', async () => {
    const listed = API_ROUTES.map((r) => `${r.method} ${r.path}`).sort();
    const onDisk = (await routeFilesOnDisk()).filter((r) => r !== 'GET /openapi.json');
    expect(onDisk).toEqual(listed);
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
    const create = doc.paths['/booking-groups']!.post!;
    expect(JSON.stringify(create.requestBody)).toContain('"maxItems":50');
    expect(create.responses).toHaveProperty('409');
    expect(openApiDocument('https://unlock.example')).toMatchObject({
      servers: [{ url: 'https://unlock.example/api/v1' }],
    });
  });
});
