import { AppError } from '../errors';
import { MAX_BODY_BYTES } from './body-limit.mjs';

/**
 * Reads a request body as bytes, refusing more than `limit` (413 `payload_too_large`) without buffering it all. A
 * body that fails before its end (the client went away mid-upload, which the web server's streamed bodies report so)
 * is a 400 `invalid_request`, not an error of the server's.
 */
export async function readRawBody(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw new AppError('payload_too_large', `The body is larger than ${limit} bytes.`);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new AppError('invalid_request', 'The body ended before it was complete.');
    });
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

/**
 * How deep a JSON body may nest. Every body the API and the providers send nests a dozen levels at
 * most; PostgreSQL's jsonb parser (and any recursive walk) runs out of stack a few thousand deep.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests deeper than `maxDepth` (objects and arrays), found in one pass without parsing. */
export function jsonNestsDeeperThan(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The refusal of a body that nests too deep: 400 `invalid_request`, issue code `too_deep`. */
export function tooDeep(): AppError {
  return new AppError('invalid_request', `The body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
    issues: [{ path: '', message: `nested deeper than ${MAX_JSON_DEPTH} levels`, code: 'too_deep' }],
  });
}

/** Whether an error is `tooDeep()`'s refusal. */
export function isTooDeep(error: unknown): boolean {
  const issues = error instanceof AppError ? error.details.issues : undefined;
  return Array.isArray(issues) && (issues[0] as { code?: unknown } | undefined)?.code === 'too_deep';
}

/** UTF-8 bytes as JSON: 400 `invalid_request` for bytes that are not UTF-8 JSON or nest too deep. */
export function parseJsonBytes(raw: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw malformedJson();
  }
  if (jsonNestsDeeperThan(text)) throw tooDeep();
  try {
    return JSON.parse(text);
  } catch {
    throw malformedJson();
  }
}

function malformedJson(): AppError {
  return new AppError('invalid_request', 'The body is not valid JSON.', {
    issues: [{ path: '', message: 'malformed JSON', code: 'invalid_json' }],
  });
}
