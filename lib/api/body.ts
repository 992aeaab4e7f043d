import { z } from 'zod';
import { AppError } from '../errors';
import { readRawBody, parseJsonBytes } from '../http/body';
import { invalidRequest } from './http';

/**
 * Parses a JSON body against a zod schema: 400 `invalid_request` (with `issues`) for anything else.
 * `limit` raises the body's limit for the one route that needs it (lib/http/body-limit.mjs).
 */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: { optional?: boolean; limit?: number } = {},
): Promise<z.infer<S>> {
  const raw = await readRawBody(request, options.limit);
  let value: unknown = {};
  if (raw.byteLength > 0 || !options.optional) {
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) {
      throw new AppError('invalid_request', 'Send a JSON body with content-type application/json.', {
        issues: [{ path: '', message: 'content-type must be application/json', code: 'content_type' }],
      });
    }
    value = parseJsonBytes(raw);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}

/** Validates a path id: a UUID, else 400 `invalid_request`. */
export function pathId(value: string, name = 'id'): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) {
    throw new AppError('invalid_request', `The ${name} in the path must be a UUID.`, {
      issues: [{ path: name, message: 'must be a UUID', code: 'invalid_format' }],
    });
  }
  return parsed.data;
}

/** Parses a URL's query string against a zod schema (repeated keys are refused). */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = new URL(request.url).searchParams;
  const values: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in values)
      throw new AppError('invalid_request', `The query parameter ${key} is repeated.`, {
        issues: [{ path: key, message: 'repeated', code: 'repeated' }],
      });
    values[key] = value;
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}
