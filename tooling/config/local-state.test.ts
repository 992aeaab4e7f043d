import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDataDir, localSecrets, postgresOsUser, writePrivateFile } from './local-state';

const root = mkdtempSync(path.join(tmpdir(), 'unlockos-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const mode = (file: string) => statSync(file).mode & 0o777;

describe('the data directory', () => {
  it('is created 0700 with its secrets 0600', () => {
    const dir = path.join(root, 'fresh', '.data');
    const secrets = localSecrets(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, 'secrets.json'))).toBe(0o600);
    expect(Object.keys(secrets).sort()).toEqual([
      'appDataKey',
      'appDbPassword',
      'appQueueDbPassword',
      'nextauthSecret',
      'postgresPassword',
    ]);
    expect(localSecrets(dir)).toEqual(secrets);
  });

  it('tightens an existing world-readable directory and file, and fills in a secret added since', () => {
    const dir = path.join(root, 'old');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = path.join(dir, 'secrets.json');
    const old = { postgresPassword: 'p', appDbPassword: 'a', appDataKey: 'k', nextauthSecret: 'n' };
    writeFileSync(file, JSON.stringify(old));
    chmodSync(file, 0o644);
    const secrets = localSecrets(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(secrets).toMatchObject(old);
    expect(secrets.appQueueDbPassword).toMatch(/^[\w-]{20,}$/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(secrets);
  });

  it('writes its files 0600, replacing a world-readable one', () => {
    const dir = ensureDataDir(path.join(root, 'files'));
    const file = path.join(dir, 'services.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    writePrivateFile(file, '{"appUrl":"http://localhost:3000"}');
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('{"appUrl":"http://localhost:3000"}');
  });

  it.runIf(process.getuid?.() === 0)(
    'as root, belongs to the postgres user (when it exists) while its files stay root’s',
    () => {
      const dir = path.join(root, 'as-root');
      localSecrets(dir);
      const owner = postgresOsUser();
      expect(statSync(dir).uid).toBe(owner ? owner.uid : 0);
      expect(statSync(path.join(dir, 'secrets.json')).uid).toBe(0);
    },
  );
});
