import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { BlockList } from 'node:net';

/**
 * Requests to an address a tenant typed (its TTLock endpoint): https only, never to a private,
 * loopback, link-local or otherwise non-public address — checked for every address the name
 * resolves to, at the moment of connecting, so a name that resolves differently later (DNS
 * rebinding) is refused too — and never following a redirect. Every way such a request can fail
 * before an answer (refused, no such name, timeout, TLS, a redirect, a refused address) is one
 * error, `UnreachableError`: the tenant learns "could not reach the provider", nothing about what
 * is behind the address (no port or network oracle). `ALLOW_PRIVATE_FETCH=1` (the operator's, for
 * the simulator and tests) lets plain http and private addresses through; redirects stay refused.
 */

/** One answer for every way an outbound request can fail before a usable answer. */
export class UnreachableError extends Error {
  constructor() {
    super('the provider could not be reached');
    this.name = 'UnreachableError';
  }
}

/** Whether the operator lets tenant-given addresses be private or plain http (`ALLOW_PRIVATE_FETCH=1`). */
export function privateFetchAllowed(): boolean {
  return process.env.ALLOW_PRIVATE_FETCH === '1';
}

const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
// Within global unicast (2000::/3): outside it nothing is routed on the internet — ::/8 (unspecified, loopback,
// IPv4-compatible, IPv4-translated), 64:ff9b:1::/48 (local-use NAT64), 100::/64, fc00::/7, fe80::/10, ff00::/8.
const BLOCKED_V6: [string, number][] = [
  ['2001::', 32], // Teredo
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:db8::', 32],
  ['3fff::', 20],
];
const v4Blocks = new BlockList();
for (const [network, prefix] of BLOCKED_V4) v4Blocks.addSubnet(network, prefix, 'ipv4');
const v6Blocks = new BlockList();
for (const [network, prefix] of BLOCKED_V6) v6Blocks.addSubnet(network, prefix, 'ipv6');

/** An IPv6 address as its eight 16-bit groups (a dotted IPv4 tail included), or null. */
function groupsOf(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (net.isIPv4(dotted[1]!) === false) return null;
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, ...rest] = text.split('::');
  if (rest.length) return null;
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const groups =
    tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address carries and reaches: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d` (RFC 2765), NAT64's well-known `64:ff9b::a.b.c.d` (RFC 6052), 6to4 `2002:aabb:ccdd::/48`
 * (RFC 3056); null for any other address.
 */
function carriedV4(g: number[]): string | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4Of(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!);
  return null;
}

/**
 * Whether an IP address is public: IPv4 outside the blocked ranges; IPv6 judged by the IPv4 address it carries
 * (`carriedV4`), else global unicast (2000::/3) outside the blocked ranges — so the IPv4-compatible `::a.b.c.d`,
 * Teredo and `::` are refused.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(bare)) return !v4Blocks.check(bare, 'ipv4');
  if (!net.isIPv6(bare)) return false;
  const g = groupsOf(bare);
  if (!g) return false;
  const carried = carriedV4(g);
  if (carried) return isPublicAddress(carried);
  return (g[0]! & 0xe000) === 0x2000 && !v6Blocks.check(bare, 'ipv6');
}

/** Why a tenant-given address cannot be used, without resolving it; null when its form is fine. */
export type EndpointProblem = 'invalid' | 'not_https' | 'private';

export function endpointFormProblem(url: string, allowPrivate = privateFetchAllowed()): EndpointProblem | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid';
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) return 'invalid';
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:'))
    return parsed.protocol === 'http:' ? 'not_https' : 'invalid';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!host) return 'invalid';
  if (net.isIP(host) && !allowPrivate && !isPublicAddress(host)) return 'private';
  return null;
}

/**
 * Checks a tenant-given address as it will be used, when it is saved: its form, then every address
 * its name resolves to. `unreachable` when the name does not resolve (said like any other failure
 * to reach the provider).
 */
export async function endpointProblem(
  url: string,
  allowPrivate = privateFetchAllowed(),
): Promise<EndpointProblem | 'unreachable' | null> {
  const form = endpointFormProblem(url, allowPrivate);
  if (form || allowPrivate) return form;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return null;
  try {
    const addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    return addresses.length && addresses.every((a) => isPublicAddress(a.address)) ? null : 'private';
  } catch {
    return 'unreachable';
  }
}

type LookupCallback = (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A DNS lookup for net.connect that refuses a name with any non-public address among its answers. */
export function publicLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const usable = addresses.filter((a) => !options.family || a.family === options.family);
    if (!usable.length || addresses.some((a) => !isPublicAddress(a.address)))
      return callback(Object.assign(new Error('refused address'), { code: 'EADDRNOTPUBLIC' }), '');
    if (options.all) return callback(null, usable);
    callback(null, usable[0]!.address, usable[0]!.family);
  });
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  signal?: AbortSignal;
};

/**
 * A fetch for tenant-given addresses (see above): answers a Response for a 2xx, 4xx or 5xx answer
 * of at most 4 MiB (or `maxBytes`), and throws `UnreachableError` for everything else.
 */
export function outboundFetch(options: { allowPrivate?: boolean; maxBytes?: number } = {}) {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  return (input: string, init: OutboundInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const allowPrivate = options.allowPrivate ?? privateFetchAllowed();
      const unreachable = () => reject(new UnreachableError());
      if (endpointFormProblem(input, allowPrivate)) return unreachable();
      const url = new URL(input);
      const body = init.body === undefined ? undefined : String(init.body);
      const request = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: init.method ?? 'GET',
          headers: {
            ...init.headers,
            ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }),
          },
          signal: init.signal,
          agent: false,
          ...(allowPrivate ? {} : { lookup: publicLookup as unknown as typeof dns.lookup }),
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status < 200 || status >= 600 || (status >= 300 && status < 400)) {
            response.destroy();
            return unreachable();
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              response.destroy();
              unreachable();
            } else chunks.push(chunk);
          });
          response.on('error', unreachable);
          // Cut off mid-answer (the signal's timeout, a reset): no answer, however much arrived.
          response.on('close', () => {
            if (!response.complete) unreachable();
          });
          response.on('end', () => {
            const empty = status === 204 || status === 205;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status }));
          });
        },
      );
      request.on('error', unreachable);
      request.end(body);
    });
}
