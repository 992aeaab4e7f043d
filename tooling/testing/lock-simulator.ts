import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  startSimulator,
  type SimulatorCall,
  type SimulatorCode,
  type SimulatorLockInput,
} from '../simulator/lock-simulator';
import { TokenCache } from '../../lib/locks/token-cache';
import { createTtlockProvider, type TtlockProviderOptions } from '../../lib/locks/ttlock';

/**
 * A TTLock simulator on a free loopback port with credentials of its own (none is built in), its
 * control API, and adapters pointed at it — each with a token cache of its own unless told.
 */
export async function startLockSimulator(options: { locks?: SimulatorLockInput[]; autoCreateLocks?: boolean } = {}) {
  const account = {
    clientId: 'unlockos',
    clientSecret: randomUUID(),
    username: 'unlockos_test',
    password: randomUUID(),
  };
  const sim = await startSimulator({ ...account, ...options });
  const control = async (path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sim.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json();
  };
  return {
    url: sim.url,
    account,
    close: sim.close,
    control,
    calls: async () => ((await control('/_control/calls')) as { calls: SimulatorCall[] }).calls,
    codes: async () => ((await control('/_control/codes')) as { locks: Record<string, SimulatorCode[]> }).locks,
    provider: (overrides: Partial<TtlockProviderOptions> = {}) =>
      createTtlockProvider({
        name: 'simulator',
        baseUrl: sim.url,
        ...account,
        tokenCache: new TokenCache(),
        ...overrides,
      }),
  };
}

export type LockSimulator = Awaited<ReturnType<typeof startLockSimulator>>;

/**
 * For a test file driving the install's own provider (tenants on `simulator`): a simulator for the
 * file as the install's vendor, an admin connection, and faults cleared before each test. Read `sim`
 * and `admin` from the returned object inside the tests.
 */
export function withSimulatorProvider(options: { timeoutMs?: number } = {}) {
  const env = {} as { sim: LockSimulator; admin: pg.Client };
  beforeAll(async () => {
    const { setInstallLockProviderForTests } = await import('../../lib/locks/install-provider');
    const { adminClient } = await import('./fixtures');
    env.sim = await startLockSimulator();
    setInstallLockProviderForTests(env.sim.provider({ timeoutMs: options.timeoutMs ?? 2_000 }));
    env.admin = await adminClient();
  });
  afterAll(async () => {
    const { setInstallLockProviderForTests } = await import('../../lib/locks/install-provider');
    setInstallLockProviderForTests(null);
    await env.admin.end();
    await env.sim.close();
  });
  beforeEach(async () => {
    await env.sim.control('/_control/faults', {});
  });
  return env;
}
