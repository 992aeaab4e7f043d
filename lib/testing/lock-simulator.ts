import { randomUUID } from 'node:crypto';
import { startSimulator, type SimulatorCall, type SimulatorCode, type SimulatorLockInput } from '../locks/simulator';
import { TokenCache } from '../locks/token-cache';
import { createTtlockProvider, type TtlockProviderOptions } from '../locks/ttlock';

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
