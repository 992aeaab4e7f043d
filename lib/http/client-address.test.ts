import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER, clientAddress } from './client-address';

const MARKER = Symbol.for('unlockos.client-address-preload');
const marked = (on: boolean) => {
  if (on) (globalThis as Record<symbol, unknown>)[MARKER] = true;
  else delete (globalThis as Record<symbol, unknown>)[MARKER];
};
afterEach(() => marked(false));

describe('clientAddress', () => {
  it('reads only the preload’s header, from a Request, Headers or a plain header record', () => {
    marked(true);
    const forged = { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.10' };
    expect(
      clientAddress(new Request('http://test/', { headers: { ...forged, [CLIENT_ADDRESS_HEADER]: '192.0.2.1' } })),
    ).toBe('192.0.2.1');
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: '2001:db8::1' }))).toBe('2001:db8::1');
    expect(clientAddress({ ...forged, [CLIENT_ADDRESS_HEADER]: '192.0.2.2' })).toBe('192.0.2.2');
    expect(clientAddress(new Request('http://test/', { headers: forged }))).toBe('unknown');
    expect(clientAddress({ ...forged, get: 'not a function' })).toBe('unknown');
    expect(clientAddress(undefined)).toBe('unknown');
  });

  it('answers "unknown" for anything that is not one address', () => {
    marked(true);
    for (const bad of ['', 'unknown', '192.0.2.1, 192.0.2.2', '192.0.2.1:80', 'evil.example', 'x'.repeat(100)]) {
      expect(clientAddress({ [CLIENT_ADDRESS_HEADER]: bad })).toBe('unknown');
    }
    expect(clientAddress({ [CLIENT_ADDRESS_HEADER]: ['192.0.2.1', '192.0.2.2'] })).toBe('unknown');
  });

  it('believes no header in a process the preload did not stamp (the client could have sent it)', () => {
    marked(false);
    expect(clientAddress({ [CLIENT_ADDRESS_HEADER]: '192.0.2.1' })).toBe('unknown');
  });
});
