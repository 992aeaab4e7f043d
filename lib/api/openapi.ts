import { z } from 'zod';
import { ERROR_STATUS } from './http';
import { API_EXAMPLES } from './openapi-examples';
import { ZErrorSchema } from './response-schemas';
import { API_ROUTES } from './routes';

/** Where the document's shared schemas live: every `$ref` points here. */
const COMPONENTS = '#/components/schemas/';

/**
 * A zod schema as JSON Schema for the document: the named schemas it uses (`.meta({ id })`) go to
 * `components.schemas` (collected in `shared`), and its `$ref`s point there — zod writes them as
 * `#/$defs/…`, which in the document would point at a root that does not exist.
 */
function jsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  shared: Record<string, unknown>,
): Record<string, unknown> {
  const {
    $schema: _ignored,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown> & { $defs?: Record<string, unknown> };
  for (const [name, def] of Object.entries($defs ?? {})) shared[name] ??= toComponentRefs(def);
  return toComponentRefs(rest) as Record<string, unknown>;
}

function toComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponentRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? COMPONENTS + inner.slice('#/$defs/'.length)
        : toComponentRefs(inner),
    ]),
  );
}

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the same zod schemas that validate requests.
 * Without `serverUrl` its server is `/api/v1`, relative to wherever the document is read (OpenAPI
 * resolves it against the document's own address): "Test Request" on /docs/api then calls the
 * address the browser is on, whatever host and port that is.
 */
export function openApiDocument(serverUrl = ''): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of API_ROUTES) {
    const examples = API_EXAMPLES[`${route.method} ${route.path}`] ?? {};
    const example = (name: string) =>
      examples.parameters?.[name] === undefined ? {} : { example: examples.parameters[name] };
    const parameters: Record<string, unknown>[] = [];
    if (route.path.includes('{id}'))
      parameters.push({
        name: 'id',
        in: 'path',
        required: true,
        schema: { type: 'string', format: 'uuid' },
        ...example('id'),
      });
    if (route.query) {
      const schema = jsonSchema(route.query, 'input', shared) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        parameters.push({
          name,
          in: 'query',
          required: schema.required?.includes(name) ?? false,
          schema: property,
          ...example(name),
        });
      }
    }
    const responses: Record<string, unknown> = {
      [String(route.success.status)]: {
        description: route.success.description,
        ...(route.success.media
          ? {
              content: Object.fromEntries(
                route.success.media.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
              ),
            }
          : {}),
        ...(route.success.schema
          ? {
              content: {
                'application/json': {
                  schema: jsonSchema(route.success.schema, 'output', shared),
                  ...(examples.response === undefined ? {} : { example: examples.response }),
                },
              },
            }
          : {}),
      },
      '401': {
        description: 'Missing or invalid API key',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      '429': {
        description: 'Rate limited (see retry-after)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    };
    const byStatus = new Map<string, string[]>();
    for (const code of route.errors) {
      const status = String(ERROR_STATUS[code]);
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of byStatus) {
      responses[status] = {
        description: `Error: ${codes.join(' | ')}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      summary: route.summary,
      operationId: `${route.method.toLowerCase()}${route.path.replace(/\{id\}/g, 'ById').replace(/[^A-Za-z]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters,
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: jsonSchema(route.body, 'input', shared),
                  ...(examples.request ? { examples: examples.request } : {}),
                },
              },
            },
          }
        : {}),
      responses,
    };
  }
  // The error shape is named (`Error`): its JSON Schema is a reference, and the shape lands in `shared`.
  jsonSchema(ZErrorSchema, 'output', shared);
  return {
    openapi: '3.1.0',
    info: {
      title: 'UnlockOS API',
      version: '1.0.0',
      description:
        'Keyless access for rooms with smart locks. Every request carries `Authorization: Bearer <api key>`; a key sees only its own tenant.',
    },
    servers: [{ url: `${serverUrl.replace(/\/$/, '')}/api/v1` }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'A tenant API key (uok_…)' } },
      schemas: shared,
    },
    paths,
  };
}
