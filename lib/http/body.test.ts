import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { readRawBody } from './body';

/** A request whose body is `parts`, then (with `fail`) the stream's failure: a client that went away mid-upload. */
function request(parts: number[], fail?: Error): Request {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < parts.length) controller.enqueue(new Uint8Array(parts[i++]!));
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });
  return new Request('http://test/', { method: 'PUT', body, duplex: 'half' } as RequestInit);
}

const refusal = (error: unknown) => (error instanceof AppError ? { code: error.code } : { error: String(error) });

describe('readRawBody', () => {
  it('reads a streamed body up to its limit, and refuses one over it with 413', async () => {
    expect((await readRawBody(request([1000, 24]), 1024)).byteLength).toBe(1024);
    expect(await readRawBody(request([1000, 25]), 1024).catch(refusal)).toEqual({ code: 'payload_too_large' });
  });

  it('answers a body that ends in a failure (the client went away) as a 400, not as the server’s own error', async () => {
    const broken = await readRawBody(request([1000], new Error('aborted'))).catch(refusal);
    expect(broken).toEqual({ code: 'invalid_request' });
  });
});
