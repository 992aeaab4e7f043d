import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress, privateFetchAllowed, publicLookup } from '../http/outbound-fetch';

/** What a feed fetch may cost: its size, its time and its redirects. */
export const FEED_LIMITS = { bytes: 2 * 1024 * 1024, timeoutMs: 10_000, redirects: 3 } as const;

export type FeedValidators = { etag: string | null; lastModified: string | null };

export type FeedFetch =
  | { status: 'ok'; body: string; validators: FeedValidators }
  | { status: 'not_modified' }
  | { status: 'failed'; reason: string };

/** Why a fetch failed, in words a manager can act on (no URL in it: a feed URL is a secret). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRNOTPUBLIC') return 'the address is private or loopback';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'ECONNREFUSED') return 'the server refused the connection';
  if (code === 'ETIMEDOUT' || code === 'ETIMEOUT') return 'the server took too long';
  if (code === 'ECONNRESET') return 'the connection was cut';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return 'the server’s certificate is not valid';
  return 'the feed could not be fetched';
}

function once(
  url: URL,
  validators: FeedValidators | null,
  signal: AbortSignal,
): Promise<FeedFetch | { redirect: URL }> {
  return new Promise((resolve) => {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return resolve({ status: 'failed', reason: 'only http and https feeds can be fetched' });
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !privateFetchAllowed() && !isPublicAddress(host))
      return resolve({ status: 'failed', reason: 'the address is private or loopback' });
    const headers: Record<string, string> = {
      accept: 'text/calendar, text/plain;q=0.5',
      'user-agent': 'UnlockOS-iCal/1.0',
    };
    if (validators?.etag) headers['if-none-match'] = validators.etag;
    if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
    const client = url.protocol === 'https:' ? https : http;
    // Every connection's address is checked as it is made (publicLookup), so DNS rebinding gets nowhere.
    const lookup = privateFetchAllowed() ? undefined : (publicLookup as unknown as typeof dns.lookup);
    const request = client.get(url, { headers, signal, agent: false, ...(lookup ? { lookup } : {}) }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304 && response.headers.location) {
        response.resume();
        try {
          return resolve({ redirect: new URL(response.headers.location, url) });
        } catch {
          return resolve({ status: 'failed', reason: 'the server redirected to an invalid address' });
        }
      }
      if (status === 304) {
        response.resume();
        return resolve({ status: 'not_modified' });
      }
      if (status < 200 || status >= 300) {
        response.resume();
        return resolve({ status: 'failed', reason: `the server answered ${status}` });
      }
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > FEED_LIMITS.bytes) {
        response.destroy();
        return resolve({ status: 'failed', reason: 'the feed is larger than 2 MB' });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > FEED_LIMITS.bytes) {
          response.destroy();
          resolve({ status: 'failed', reason: 'the feed is larger than 2 MB' });
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: 'ok',
          body: Buffer.concat(chunks).toString('utf8'),
          validators: {
            etag: typeof response.headers.etag === 'string' ? response.headers.etag.slice(0, 300) : null,
            lastModified:
              typeof response.headers['last-modified'] === 'string'
                ? response.headers['last-modified'].slice(0, 100)
                : null,
          },
        }),
      );
      response.on('error', (error) => resolve({ status: 'failed', reason: reasonOf(error) }));
    });
    request.on('error', (error) =>
      resolve({ status: 'failed', reason: signal.aborted ? 'the server took too long' : reasonOf(error) }),
    );
  });
}

/**
 * Fetches a feed as a channel serves it: a conditional GET (its last ETag and Last-Modified), at most 2 MB in
 * 10 s, following at most 3 redirects, only from public addresses (each connection's resolved address is checked;
 * private and loopback ones only with ALLOW_PRIVATE_FETCH=1). Never throws: a failure says why, without the URL.
 */
export async function fetchFeed(url: string, validators: FeedValidators | null): Promise<FeedFetch> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { status: 'failed', reason: 'the feed address is not a URL' };
  }
  const signal = AbortSignal.timeout(FEED_LIMITS.timeoutMs);
  for (let hop = 0; hop <= FEED_LIMITS.redirects; hop++) {
    const result = await once(target, validators, signal);
    if (!('redirect' in result)) return result;
    target = result.redirect;
  }
  return { status: 'failed', reason: 'the server redirected too many times' };
}
