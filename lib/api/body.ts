import { z } from 'zod';
import { AppError } from '../errors';
import { MAX_BODY_BYTES } from './body-limit.mjs';
import { invalidRequest } from './http';

/** Reads a request body as bytes, refusing more than `limit` (413 `payload_too_large`) without buffering it all. */
export async function readRawBody(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw new AppError('payload_too_large', `The body is larger than ${limit} bytes.`);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new AppError('payload_too_large', `The body is larger than ${limit} bytes.`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Parses a JSON body against a zod schema: 400 `invalid_request` (with `issues`) for anything else. */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: { optional?: boolean } = {},
): Promise<z.infer<S>> {
  const raw = await readRawBody(request);
  let value: unknown = {};
  if (raw.byteLength > 0 || !options.optional) {
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) {
      throw new AppError('invalid_request', 'Send a JSON body with content-type application/json.', {
        issues: [{ path: '', message: 'content-type must be application/json', code: 'content_type' }],
      });
    }
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      throw new AppError('invalid_request', 'The body is not valid JSON.', {
        issues: [{ path: '', message: 'malformed JSON', code: 'invalid_json' }],
      });
    }
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
