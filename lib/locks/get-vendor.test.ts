import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { getVendor, setVendorForTests } from './get-vendor';
import { startSimulator } from './simulator';

const KEYS = ['LOCK_VENDOR', 'LOCK_VENDOR_URL', 'LOCK_VENDOR_CLIENT_ID', 'LOCK_VENDOR_CLIENT_SECRET'] as const;
const saved = Object.fromEntries(KEYS.map((key) => [key, process.env[key]]));
afterEach(() => {
  setVendorForTests(null);
  for (const key of KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

const token = (url: string, clientId: string, clientSecret: string) =>
  fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
  });

describe('lock vendor credentials', () => {
  it('getVendor refuses to run without explicit client credentials', () => {
    process.env.LOCK_VENDOR_URL = 'http://127.0.0.1:9';
    delete process.env.LOCK_VENDOR_CLIENT_ID;
    delete process.env.LOCK_VENDOR_CLIENT_SECRET;
    expect(() => getVendor()).toThrow(/LOCK_VENDOR_CLIENT_ID and LOCK_VENDOR_CLIENT_SECRET/);
    process.env.LOCK_VENDOR_CLIENT_ID = 'unlockos';
    expect(() => getVendor()).toThrow(/LOCK_VENDOR_CLIENT_SECRET/);
    process.env.LOCK_VENDOR_CLIENT_SECRET = 'a-secret';
    expect(getVendor()).toBeDefined();
  });

  it('the simulator accepts only the secret it was started with — no built-in one', async () => {
    const sim = await startSimulator({ clientId: 'unlockos', clientSecret: 'fresh-secret-1' });
    try {
      expect((await token(sim.url, 'unlockos', 'fresh-secret-1')).status).toBe(200);
      expect((await token(sim.url, 'unlockos', 'simulator-secret')).status).toBe(401);
      expect((await token(sim.url, 'other', 'fresh-secret-1')).status).toBe(401);
    } finally {
      await sim.close();
    }
  });

  it('the simulator process refuses to start without SIMULATOR_CLIENT_SECRET', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SIMULATOR_PORT: '0' };
    delete env.SIMULATOR_CLIENT_SECRET;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/simulator.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    clearTimeout(timer);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull(); // it exited on its own, not killed for listening
    expect(stderr).toMatch(/SIMULATOR_CLIENT_SECRET/);
  }, 30_000);
});
