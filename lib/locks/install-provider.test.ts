import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { installLockProvider, setInstallLockProviderForTests } from './install-provider';
import { startSimulator } from '../../tooling/simulator/lock-simulator';

const KEYS = [
  'LOCK_VENDOR',
  'LOCK_VENDOR_URL',
  'LOCK_VENDOR_CLIENT_ID',
  'LOCK_VENDOR_CLIENT_SECRET',
  'LOCK_VENDOR_USERNAME',
  'LOCK_VENDOR_PASSWORD',
] as const;
const saved = Object.fromEntries(KEYS.map((key) => [key, process.env[key]]));
afterEach(() => {
  setInstallLockProviderForTests(null);
  for (const key of KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

const md5 = (value: string) => createHash('md5').update(value).digest('hex');
const token = (url: string, fields: Record<string, string>) =>
  fetch(`${url}/oauth2/token`, { method: 'POST', body: new URLSearchParams(fields) }).then(
    (r) => r.json() as Promise<Record<string, unknown>>,
  );

describe('lock provider credentials', () => {
  it('installLockProvider refuses to run without explicit client credentials and account', () => {
    process.env.LOCK_VENDOR_URL = 'http://127.0.0.1:9';
    process.env.LOCK_VENDOR = 'seam'; // the default for tenants; the install's own simulator is there all the same
    for (const key of KEYS.slice(2)) delete process.env[key];
    const missing = /LOCK_VENDOR_CLIENT_ID, LOCK_VENDOR_CLIENT_SECRET, LOCK_VENDOR_USERNAME and LOCK_VENDOR_PASSWORD/;
    expect(() => installLockProvider()).toThrow(missing);
    process.env.LOCK_VENDOR_CLIENT_ID = 'unlockos';
    process.env.LOCK_VENDOR_CLIENT_SECRET = 'a-secret';
    process.env.LOCK_VENDOR_USERNAME = 'unlockos_demo';
    expect(() => installLockProvider()).toThrow(missing);
    process.env.LOCK_VENDOR_PASSWORD = 'a-password';
    expect(installLockProvider().name).toBe('simulator');
  });

  it('the simulator accepts only the client and account it was started with — no built-in one', async () => {
    const sim = await startSimulator({
      clientId: 'unlockos',
      clientSecret: 'fresh-secret-1',
      username: 'unlockos_demo',
      password: 'fresh-password-1',
    });
    const account = { clientId: 'unlockos', clientSecret: 'fresh-secret-1', username: 'unlockos_demo' };
    try {
      expect(await token(sim.url, { ...account, password: md5('fresh-password-1') })).toHaveProperty('access_token');
      expect(
        await token(sim.url, { ...account, clientSecret: 'simulator-secret', password: md5('fresh-password-1') }),
      ).toMatchObject({ errcode: 10001 });
      expect(await token(sim.url, { ...account, clientId: 'other', password: md5('fresh-password-1') })).toMatchObject({
        errcode: 10000,
      });
      expect(await token(sim.url, { ...account, password: md5('password') })).toMatchObject({ errcode: 10007 });
      expect(await token(sim.url, { ...account, username: 'admin', password: md5('fresh-password-1') })).toMatchObject({
        errcode: 10007,
      });
    } finally {
      await sim.close();
    }
  });

  for (const missing of ['SIMULATOR_CLIENT_SECRET', 'SIMULATOR_PASSWORD'] as const) {
    it(`the simulator process refuses to start without ${missing}`, async () => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        SIMULATOR_PORT: '0',
        SIMULATOR_CLIENT_SECRET: 'a-secret',
        SIMULATOR_PASSWORD: 'a-password',
      };
      delete env[missing];
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
      expect(stderr).toMatch(new RegExp(missing));
    }, 30_000);
  }
});
