import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffUser } from '../staff/create-staff-user';
import { createTenant } from '../staff/create-tenant';
import { authOptions } from './auth-options';

// This process stands in for a web process with scripts/client-address.cjs preloaded.
const MARKER = Symbol.for('unlockos.client-address-preload');
beforeAll(() => {
  (globalThis as Record<symbol, unknown>)[MARKER] = true;
});
afterAll(() => {
  delete (globalThis as Record<symbol, unknown>)[MARKER];
});

type Authorize = (
  credentials: Record<string, string>,
  request: { headers: Record<string, string> },
) => Promise<{ id: string } | null>;
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

describe('next-auth credentials', () => {
  it('slows down the address the preload saw, not the one a client writes in X-Forwarded-For', async () => {
    const tenant = await createTenant({ name: 'Forged' });
    const email = `forged-${randomUUID()}@example.com`;
    await createStaffUser({ tenantId: tenant.id, email, password: 'right password', role: 'manager' });
    const attacker = '203.0.113.50';
    const victim = '198.51.100.50';
    const from = (address: string, forwardedFor: string) => ({
      headers: { 'x-unlockos-client-address': address, 'x-forwarded-for': forwardedFor },
    });
    // The attacker claims a new address on every try, and sometimes the owner's.
    for (let i = 0; i < 8; i++)
      expect(await authorize({ email, password: 'wrong' }, from(attacker, i % 2 ? victim : `192.0.2.${i}`))).toBeNull();
    expect(await authorize({ email, password: 'right password' }, from(attacker, '192.0.2.200'))).toBeNull();
    expect(await authorize({ email, password: 'right password' }, from(victim, victim))).toMatchObject({ email });
  });
});

describe('next-auth redirect callback', () => {
  it('stays on this origin', async () => {
    const redirect = authOptions.callbacks!.redirect!;
    const baseUrl = 'http://localhost:3000';
    expect(await redirect({ url: '/manage', baseUrl })).toBe('http://localhost:3000/manage');
    expect(await redirect({ url: `${baseUrl}/desk?x=1`, baseUrl })).toBe('http://localhost:3000/desk?x=1');
    for (const url of [
      '/.//evil.example',
      '/%2e//evil.example',
      '/a/..//evil.example',
      '/.\\evil.example',
      '//evil.example',
      'https://evil.example/',
      `${baseUrl}/.//evil.example`,
    ]) {
      expect({ url, to: await redirect({ url, baseUrl }) }).toEqual({ url, to: 'http://localhost:3000/desk' });
    }
  });
});
