/** The chunk a counted body is made of: a stream may hold one before anyone reads it. */
const CHUNK_BYTES = 16 * 1024;

/**
 * A request body of `size` bytes (JSON whitespace) that counts what a handler pulls from it: nothing is produced
 * before a read asks for it. `bodyRead()` is false while at most the one chunk a stream may hold ahead was pulled
 * (that is not reading the body), else the bytes pulled.
 */
export function countedBody(size: number): { stream: ReadableStream<Uint8Array>; bodyRead: () => number | false } {
  const chunk = new Uint8Array(CHUNK_BYTES).fill(0x20);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= size) return controller.close();
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, bodyRead: () => (pulled > CHUNK_BYTES ? pulled : false) };
}

/** A JSON request to `url` whose body is `body`'s stream (a `countedBody`), with `headers` added. */
export function streamedRequest(
  url: string,
  method: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Request {
  return new Request(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}
