import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_PRELOAD, WEB_NODE_FLAGS } from '../tooling/config/web-process';

type Preload = {
  HEADER: string;
  clientAddressFrom(input: {
    socketAddress: string | undefined;
    forwardedFor?: string | string[];
    trustedHops: number;
  }): string | null;
  trustedHopsFrom(value: string | undefined): number;
};
const preload = createRequire(import.meta.url)('./client-address.cjs') as Preload;

describe('clientAddressFrom (TRUST_PROXY = n hops)', () => {
  const from = (forwardedFor: string | string[] | undefined, trustedHops: number, socketAddress = '10.0.0.2') =>
    preload.clientAddressFrom({ socketAddress, forwardedFor, trustedHops });

  it('is the socket’s address without trusted hops, whatever X-Forwarded-For says', () => {
    expect(from(undefined, 0)).toBe('10.0.0.2');
    expect(from('203.0.113.9', 0)).toBe('10.0.0.2');
    expect(from('203.0.113.9', 0, '::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(from(undefined, 0, '::1')).toBe('::1');
    expect(preload.clientAddressFrom({ socketAddress: undefined, trustedHops: 0 })).toBeNull();
  });

  it('believes exactly n hops from the right, the leftmost when the chain is shorter', () => {
    expect(from('203.0.113.9', 1)).toBe('203.0.113.9');
    expect(from('6.6.6.6, 203.0.113.9', 1)).toBe('203.0.113.9');
    expect(from('6.6.6.6, 203.0.113.9, 10.0.0.1', 2)).toBe('203.0.113.9');
    expect(from(['6.6.6.6', '203.0.113.9'], 1)).toBe('203.0.113.9');
    expect(from('203.0.113.9', 5)).toBe('203.0.113.9');
    expect(from(undefined, 1)).toBe('10.0.0.2');
    expect(from(' , ,203.0.113.9 ,', 1)).toBe('203.0.113.9');
  });

  it('normalises the forms proxies write and does not believe anything that is not an address', () => {
    expect(from('203.0.113.9:51234', 1)).toBe('203.0.113.9');
    expect(from('[2001:DB8::1]:443', 1)).toBe('2001:db8::1');
    expect(from('2001:db8::1', 1)).toBe('2001:db8::1');
    expect(from('not-an-address', 1)).toBe('10.0.0.2');
    expect(from('203.0.113.9\r\nx-evil: 1', 1)).toBe('10.0.0.2');
    expect(from('unknown', 1)).toBe('10.0.0.2');
  });

  it('reads TRUST_PROXY as a number of hops, and trusts none for anything else', () => {
    expect(preload.trustedHopsFrom(undefined)).toBe(0);
    expect(preload.trustedHopsFrom('')).toBe(0);
    expect(preload.trustedHopsFrom('2')).toBe(2);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    expect(preload.trustedHopsFrom('true')).toBe(0);
    expect(preload.trustedHopsFrom('-1')).toBe(0);
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        process.off('warning', onWarning);
        expect(warnings).toHaveLength(2);
        resolve();
      }),
    );
  });

  it('does not patch the process that merely requires it', () => {
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('unlockos.client-address-preload')]).toBeUndefined();
  });
});

// A plain Node HTTP server with the preload loaded as the web processes load it (WEB_NODE_FLAGS),
// answering with the headers its request handler sees.
const SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const raw = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === '${preload.HEADER}') raw.push(req.rawHeaders[i + 1]);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ address: req.headers['${preload.HEADER}'] ?? null, raw }));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

async function startServer(env: Record<string, string>): Promise<{ port: number; stderr: () => string }> {
  const child = spawn(process.execPath, [...WEB_NODE_FLAGS, '-e', SERVER], {
    env: { ...process.env, TRUST_PROXY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { port, stderr: () => stderr };
}

/** Sends a request with exactly these header lines (repeated names stay repeated). */
function send(port: number, headers: [string, string][]): Promise<{ address: string | null; raw: string[] }> {
  return new Promise((resolve, reject) => {
    // Raw header lines: Node adds no Host of its own then.
    const lines = [['Host', `127.0.0.1:${port}`], ...headers].flat();
    const request = http.request(
      { host: '127.0.0.1', port, path: '/', method: 'GET', headers: lines as unknown as http.OutgoingHttpHeaders },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () =>
          response.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`HTTP ${response.statusCode}`)),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('the client-address preload in a real HTTP server', () => {
  it('is what the web processes load', () => {
    expect(WEB_NODE_FLAGS).toContain(`--require=${CLIENT_ADDRESS_PRELOAD}`);
    expect(CLIENT_ADDRESS_PRELOAD).toBe(path.resolve(import.meta.dirname, 'client-address.cjs'));
  });

  it('without TRUST_PROXY: the socket’s address, whatever the client forges', async () => {
    const { port } = await startServer({});
    expect(await send(port, [])).toEqual({ address: '127.0.0.1', raw: ['127.0.0.1'] });
    expect(await send(port, [['X-Forwarded-For', '203.0.113.9']])).toEqual({
      address: '127.0.0.1',
      raw: ['127.0.0.1'],
    });
    expect(
      await send(port, [
        ['X-Forwarded-For', '203.0.113.9, 198.51.100.1'],
        ['X-Unlockos-Client-Address', '192.0.2.66'],
        ['x-unlockos-client-address', '192.0.2.67'],
      ]),
    ).toEqual({ address: '127.0.0.1', raw: ['127.0.0.1'] });
  });

  it('with TRUST_PROXY=1: the address the one proxy in front appended, never one the client wrote before it', async () => {
    const { port } = await startServer({ TRUST_PROXY: '1' });
    expect(await send(port, [['X-Forwarded-For', '6.6.6.6, 203.0.113.9']])).toEqual({
      address: '203.0.113.9',
      raw: ['203.0.113.9'],
    });
    expect(
      await send(port, [
        ['X-Forwarded-For', '6.6.6.6'],
        ['X-Forwarded-For', '203.0.113.9'],
      ]),
    ).toEqual({ address: '203.0.113.9', raw: ['203.0.113.9'] });
    expect(await send(port, [['x-unlockos-client-address', '192.0.2.66']])).toEqual({
      address: '127.0.0.1',
      raw: ['127.0.0.1'],
    });
    expect(
      await send(port, [
        ['X-Forwarded-For', 'nonsense'],
        ['x-unlockos-client-address', '192.0.2.66'],
      ]),
    ).toEqual({ address: '127.0.0.1', raw: ['127.0.0.1'] });
  });

  it('with TRUST_PROXY=2: two hops from the right', async () => {
    const { port } = await startServer({ TRUST_PROXY: '2' });
    expect(await send(port, [['X-Forwarded-For', '6.6.6.6, 203.0.113.9, 10.0.0.1']])).toEqual({
      address: '203.0.113.9',
      raw: ['203.0.113.9'],
    });
  });

  it('with a TRUST_PROXY that is not a number: says so and believes no hop', async () => {
    const { port, stderr } = await startServer({ TRUST_PROXY: 'true' });
    expect(await send(port, [['X-Forwarded-For', '203.0.113.9']])).toEqual({
      address: '127.0.0.1',
      raw: ['127.0.0.1'],
    });
    expect(stderr()).toMatch(/TRUST_PROXY must be a number/);
  });
});
