import { z } from 'zod';
import type { AppErrorCode } from '../errors';
import { API_EXAMPLES } from './openapi-examples';
import { ZErrorSchema } from './response-schemas';
import { API_ROUTES } from './routes';

const ERROR_STATUS: Partial<Record<AppErrorCode, string>> = {
  invalid_request: '400',
  not_found: '404',
  room_unavailable: '409',
  illegal_transition: '409',
  reservation_not_ready: '409',
  payment_intent_in_use: '409',
  payment_intent_invalid: '409',
  too_early: '409',
  unavailable: '503',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return rest;
}

/** The OpenAPI 3.1 document of /api/v1, generated from the same zod schemas that validate requests. */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
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
      const schema = jsonSchema(route.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
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
        ...(route.success.schema
          ? {
              content: {
                'application/json': {
                  schema: jsonSchema(route.success.schema, 'output'),
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
      const status = ERROR_STATUS[code];
      if (status) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
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
                  schema: jsonSchema(route.body, 'input'),
                  ...(examples.request ? { examples: examples.request } : {}),
                },
              },
            },
          }
        : {}),
      responses,
    };
  }
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
      schemas: { Error: jsonSchema(ZErrorSchema, 'output') },
    },
    paths,
  };
}
