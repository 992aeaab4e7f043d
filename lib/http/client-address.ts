import { isIP } from 'node:net';
import { logger } from '../log/logger';

/** Written by the web processes' preload (scripts/client-address.cjs) on every request; a client's own copy is dropped there. */
export const CLIENT_ADDRESS_HEADER = 'x-unlockos-client-address';
// Set by the preload in the process it runs in: without it, the header may come from the client.
const PRELOAD_MARKER = Symbol.for('unlockos.client-address-preload');

type HeaderSource =
  Request | { get(name: string): string | null } | Record<string, string | string[] | undefined> | null | undefined;

let warned = false;

function headerValue(source: HeaderSource): string | null {
  if (!source) return null;
  if (source instanceof Request) return source.headers.get(CLIENT_ADDRESS_HEADER);
  if (typeof source.get === 'function')
    return (source as { get(name: string): string | null }).get(CLIENT_ADDRESS_HEADER);
  const value = (source as Record<string, string | string[] | undefined>)[CLIENT_ADDRESS_HEADER];
  return typeof value === 'string' ? value : null;
}

/**
 * The client's address (API.md: the socket's, unless TRUST_PROXY names the proxy hops to believe),
 * as the preload computed it; `'unknown'` when absent or malformed, and always `'unknown'` in a
 * process the preload is not in (the header could then be forged), which shares one bucket rather
 * than letting each request pick its own.
 */
export function clientAddress(source: HeaderSource): string {
  if ((globalThis as Record<symbol, unknown>)[PRELOAD_MARKER] !== true) {
    if (!warned) {
      warned = true;
      logger.warn('scripts/client-address.cjs is not preloaded: every client address reads as "unknown"');
    }
    return 'unknown';
  }
  const value = headerValue(source)?.trim();
  return value && isIP(value) ? value : 'unknown';
}
