import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** What a feed fetch may cost: its size, its time and its redirects. */
export const FEED_LIMITS = { bytes: 2 * 1024 * 1024, timeoutMs: 10_000, redirects: 3 } as const;

export type FeedValidators = { etag: string | null; lastModified: string | null };

export type FeedFetch =
  | { status: 'ok'; body: string; validators: FeedValidators }
  | { status: 'not_modified' }
  | { status: 'failed'; reason: string };

// Addresses a feed may not be fetched from unless the operator allows it (ALLOW_PRIVATE_FETCH=1, as tests need):
// loopback, private, link-local, shared, unspecified, multicast and reserved ranges, in IPv4 and IPv6.
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** Whether an address is one a feed may not come from (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) return PRIVATE.check(address, 'ipv6');
  return true;
}

const privateAllowed = () => process.env.ALLOW_PRIVATE_FETCH === '1';

/**
 * The DNS lookup every feed connection uses: the address connected to is the one checked, so a name that
 * resolves to a public address when checked and a private one when connecting (DNS rebinding) gets nowhere.
 */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const allowed = privateAllowed() ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
    if (allowed.length === 0) {
      const refused = Object.assign(new Error('private address refused'), { code: 'EPRIVATE' });
      return callback(refused, '', 0);
    }
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

/** Why a fetch failed, in words a manager can act on (no URL in it: a feed URL is a secret). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EPRIVATE') return 'the address is private or loopback';
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
    if (
      isIP(url.hostname.replace(/^\[|\]$/g, '')) &&
      !privateAllowed() &&
      isPrivateAddress(url.hostname.replace(/^\[|\]$/g, ''))
    )
      return resolve({ status: 'failed', reason: 'the address is private or loopback' });
    const headers: Record<string, string> = {
      accept: 'text/calendar, text/plain;q=0.5',
      'user-agent': 'UnlockOS-iCal/1.0',
    };
    if (validators?.etag) headers['if-none-match'] = validators.etag;
    if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, { headers, lookup: checkedLookup, signal }, (response) => {
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
