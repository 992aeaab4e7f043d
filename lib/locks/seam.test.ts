import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFake, type Fake } from '@seamapi/fake-seam-connect';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../log/logger';
import { codeName } from './provider';
import { createSeamProvider } from './seam';

// Seam's own fake of its API (PROVIDERS.md, "Seam in practice"): seeded August and Schlage locks,
// a thermostat and a noise sensor, API key `seam_apikey1_token` on workspace `seed_workspace_1`.
const API_KEY = 'seam_apikey1_token';
const WORKSPACE = 'seed_workspace_1';
const LOCK = 'august_device_1';
const ctx = { correlationId: 'test-correlation' };

let fake: Fake;
let endpoint: string;

beforeEach(async () => {
  fake = await createFake();
  await fake.seed();
  await fake.startServer();
  endpoint = fake.serverUrl!;
});

afterEach(async () => {
  await fake.stopServer();
});

const seam = () => createSeamProvider({ apiKey: API_KEY, endpoint });

function windowFromNow(hours = 1) {
  const validFrom = new Date(Date.now() + 60 * 60_000);
  return { validFrom, expiresAt: new Date(validFrom.getTime() + hours * 60 * 60_000) };
}

async function program(pin: string, clientRef = randomUUID(), deviceId = LOCK) {
  const result = await seam().programCode({ ...ctx, deviceId, pin, clientRef, ...windowFromNow() });
  return { result, clientRef };
}

/** The fake's store, as Seam would change it while the lock works (it never sets codes by itself). */
const fakeDb = () => fake.database;

describe('Seam adapter against Seam’s fake', () => {
  it('lists only locks, with online, battery as a percentage and capabilities', async () => {
    fakeDb().updateDevice({
      device_id: 'august_device_2',
      display_name: 'Back Door',
      properties: {
        ...fakeDb().devices.find((d) => d.device_id === 'august_device_2')!.properties,
        online: false,
        battery: { level: 0.42, status: 'good' },
        supports_backup_access_code_pool: true,
      },
    });
    const result = await seam().listDevices(ctx);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const ids = result.data.map((d) => d.deviceId).sort();
    expect(ids).toEqual(['august_device_1', 'august_device_2', 'schlage_device_id']);
    expect(ids).not.toContain('ecobee_device_1');
    expect(ids).not.toContain('minut_device_1');
    const front = result.data.find((d) => d.deviceId === 'august_device_1')!;
    expect(front).toEqual({
      deviceId: 'august_device_1',
      name: 'Smart Device', // the fake's display name for every device it seeds
      online: true,
      offlineReason: null,
      batteryLevel: 100,
      canProgramOnline: true,
      canProgramOffline: false,
      supportsBackupCodes: false,
    });
    const back = result.data.find((d) => d.deviceId === 'august_device_2')!;
    expect(back).toMatchObject({
      name: 'Back Door',
      online: false,
      offlineReason: 'device_offline',
      batteryLevel: 42,
      supportsBackupCodes: true,
    });
  });

  it('programs a code as setting, and says set only once Seam does', async () => {
    const { result, clientRef } = await program('4821');
    expect(result).toEqual({ ok: true, data: { codeId: expect.any(String), state: 'setting' } });
    if (!result.ok) return;
    const stored = fakeDb().access_codes.find((c) => c.access_code_id === result.data.codeId)!;
    expect(stored).toMatchObject({ device_id: LOCK, code: '4821', name: codeName(clientRef), status: 'unset' });

    const before = await seam().getCode({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(before).toMatchObject({ ok: true, data: { state: 'setting', clientRef, error: null } });

    fakeDb().updateAccessCode({ access_code_id: result.data.codeId, status: 'set' });
    const after = await seam().getCode({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(after).toMatchObject({ ok: true, data: { codeId: result.data.codeId, state: 'set', clientRef } });
    if (after.ok) expect(after.data!.validFrom).toBeInstanceOf(Date);

    fakeDb().updateAccessCode({ access_code_id: result.data.codeId, status: 'removing' });
    const removing = await seam().getCode({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(removing).toMatchObject({ ok: true, data: { state: 'removing' } });
  });

  it('reports a code Seam could not set as failed, with its error', async () => {
    const { result } = await program('7731');
    if (!result.ok) throw new Error('program failed');
    fakeDb().updateAccessCode({
      access_code_id: result.data.codeId,
      status: 'unset',
      errors: [{ error_code: 'failed_to_set_on_device', message: 'x', is_access_code_error: true }],
    });
    const got = await seam().getCode({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(got).toMatchObject({ ok: true, data: { state: 'failed', error: 'failed_to_set_on_device' } });
  });

  it('refuses a duplicate PIN on one device as duplicate_code_on_device, not retryable', async () => {
    const first = await program('5150');
    expect(first.result.ok).toBe(true);
    const second = await program('5150');
    expect(second.result).toEqual({ ok: false, code: 'duplicate_code_on_device', retryable: false });
    // The same PIN on another lock is fine.
    const elsewhere = await program('5150', randomUUID(), 'august_device_2');
    expect(elsewhere.result.ok).toBe(true);
  });

  it('finds its own code when a retried create meets it as a duplicate (a lost answer)', async () => {
    const first = await program('6262');
    if (!first.result.ok) throw new Error('program failed');
    const retry = await program('6262', first.clientRef);
    expect(retry.result).toEqual({ ok: true, data: { codeId: first.result.data.codeId, state: 'setting' } });
    expect(fakeDb().access_codes.filter((c) => c.code === '6262')).toHaveLength(1);
  });

  it('an unknown device is device_not_found, not retryable', async () => {
    const { result } = await program('1111', randomUUID(), 'no_such_device');
    expect(result).toEqual({ ok: false, code: 'device_not_found', retryable: false });
  });

  it('removes a code: absent once Seam no longer knows it, and again on a second removal', async () => {
    const { result } = await program('9090');
    if (!result.ok) throw new Error('program failed');
    const removed = await seam().removeCode({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(removed.ok).toBe(true);
    if (!removed.ok) return;
    expect(['removing', 'absent']).toContain(removed.data.state);
    // The fake deletes at once, so Seam's own read confirms it gone.
    expect(removed.data.state).toBe('absent');
    expect(fakeDb().access_codes.some((c) => c.access_code_id === result.data.codeId)).toBe(false);
    const again = await seam().removeCode({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(again).toEqual({ ok: true, data: { state: 'absent' } });
  });

  it('getCode of an unknown id is null', async () => {
    const got = await seam().getCode({ ...ctx, deviceId: LOCK, codeId: 'access_code_unknown' });
    expect(got).toEqual({ ok: true, data: null });
  });

  it('getCode refuses a code that sits on another device', async () => {
    const { result } = await program('3434', randomUUID(), 'august_device_2');
    if (!result.ok) throw new Error('program failed');
    const got = await seam().getCode({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(got).toEqual({ ok: false, code: 'code_device_mismatch', retryable: false });
  });

  it('lists our codes with their clientRef, a code made outside us with none, and no other device’s', async () => {
    const ours = await program('2468');
    if (!ours.result.ok) throw new Error('program failed');
    const oursId = ours.result.data.codeId;
    await program('1357', randomUUID(), 'august_device_2');
    const drift = await fetch(`${endpoint}/access_codes/simulate/create_unmanaged_access_code`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: LOCK, name: 'Cleaner', code: '8080' }),
    });
    expect(drift.status).toBe(200);
    const driftId = ((await drift.json()) as { access_code: { access_code_id: string } }).access_code.access_code_id;

    const listed = await seam().listCodes({ ...ctx, deviceId: LOCK });
    expect(listed.ok).toBe(true);
    if (!listed.ok) return;
    expect(listed.data).toHaveLength(2);
    expect(listed.data.find((c) => c.codeId === oursId)).toMatchObject({
      clientRef: ours.clientRef,
      state: 'setting',
    });
    expect(listed.data.find((c) => c.codeId === driftId)).toMatchObject({ clientRef: null });
  });

  it('a workspace outage is a retryable failure', async () => {
    const outage = await fetch(`${endpoint}/_fake/simulate_workspace_outage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        workspace_id: WORKSPACE,
        routes: ['/devices/list', '/devices/get', '/access_codes/create', '/access_codes/get', '/workspaces/get'],
      }),
    });
    expect(outage.status).toBe(200);
    expect(await seam().listDevices(ctx)).toEqual({ ok: false, code: 'http_503', retryable: true });
    expect((await program('4444')).result).toEqual({ ok: false, code: 'http_503', retryable: true });
    expect(await seam().getCode({ ...ctx, deviceId: LOCK, codeId: 'x' })).toEqual({
      ok: false,
      code: 'http_503',
      retryable: true,
    });
    expect(await seam().checkHealth(ctx)).toEqual({ ok: false, code: 'http_503', retryable: true });
  });

  it('checks health with the key, and a wrong key is not retryable', async () => {
    expect(await seam().checkHealth(ctx)).toEqual({ ok: true, data: null });
    const wrong = createSeamProvider({ apiKey: 'seam_wrong_key', endpoint });
    const health = await wrong.checkHealth(ctx);
    expect(health).toEqual({ ok: false, code: 'unauthorized', retryable: false });
    expect(await wrong.listDevices(ctx)).toEqual({ ok: false, code: 'unauthorized', retryable: false });
  });

  it('pulls a backup code for a code that could not be set', async () => {
    fakeDb().updateDevice({
      device_id: LOCK,
      properties: {
        ...fakeDb().devices.find((d) => d.device_id === LOCK)!.properties,
        supports_backup_access_code_pool: true,
      },
    });
    const { result } = await program('1212');
    if (!result.ok) throw new Error('program failed');
    // Seam was asked to keep a backup pool for this device: the fake put one backup code aside.
    expect(fakeDb().access_codes.filter((c) => c.device_id === LOCK && c.is_backup)).toHaveLength(1);
    const backup = await seam().pullBackupCode!({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(backup).toEqual({ ok: true, data: { codeId: expect.any(String), pin: expect.stringMatching(/^\d{4}$/) } });
    if (!backup.ok) return;
    expect(backup.data.codeId).not.toBe(result.data.codeId);
    const again = await seam().pullBackupCode!({ ...ctx, deviceId: LOCK, codeId: result.data.codeId });
    expect(again).toEqual(backup);
  });

  it('changes a code’s window in place (access_codes.update): same code, same PIN, confirmed by a read', async () => {
    const { result } = await program('7731');
    if (!result.ok) throw new Error('not programmed');
    const { codeId } = result.data;
    fakeDb().updateAccessCode({ access_code_id: codeId, status: 'set' });
    const later = windowFromNow(30);
    expect(await seam().updateCodeWindow!({ ...ctx, deviceId: LOCK, codeId, ...later })).toEqual({
      ok: true,
      data: { state: 'set' },
    });
    const stored = fakeDb().access_codes.find((c) => c.access_code_id === codeId)!;
    expect(stored).toMatchObject({ code: '7731', status: 'set', ends_at: later.expiresAt.toISOString() });
    expect(fakeDb().access_codes.filter((c) => c.device_id === LOCK && c.code === '7731')).toHaveLength(1);
    // Seam has not put the new window on the lock yet: not confirmed.
    fakeDb().updateAccessCode({ access_code_id: codeId, status: 'setting' });
    expect(await seam().updateCodeWindow!({ ...ctx, deviceId: LOCK, codeId, ...windowFromNow(20) })).toEqual({
      ok: true,
      data: { state: 'setting' },
    });
    expect(await seam().updateCodeWindow!({ ...ctx, deviceId: LOCK, codeId: 'no_such_code', ...later })).toEqual({
      ok: false,
      code: 'code_not_found',
      retryable: false,
    });
  });

  it('has no offline codes (the fake cannot make them)', () => {
    expect(seam().offlineCode).toBeUndefined();
  });

  it('never logs the PIN or the API key', async () => {
    const lines: string[] = [];
    const capture = (...args: unknown[]) => void lines.push(JSON.stringify(args));
    const info = vi.spyOn(logger, 'info').mockImplementation(capture as never);
    const warn = vi.spyOn(logger, 'warn').mockImplementation(capture as never);
    try {
      await program('8642');
      await program('8642');
      await seam().listDevices(ctx);
    } finally {
      info.mockRestore();
      warn.mockRestore();
    }
    expect(lines.length).toBeGreaterThan(3);
    const all = lines.join('\n');
    expect(all).toContain('duplicate_code_on_device');
    expect(all).toContain('test-correlation');
    expect(all).not.toContain('8642');
    expect(all).not.toContain(API_KEY);
  });
});

describe('Seam adapter when Seam answers nonsense or nothing', () => {
  let server: http.Server;
  let url: string;
  let answer: (res: http.ServerResponse, path: string) => void;

  beforeEach(async () => {
    server = http.createServer((req, res) => answer(res, req.url ?? ''));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const getCode = (timeoutMs?: number) =>
    createSeamProvider({ apiKey: API_KEY, endpoint: url, timeoutMs }).getCode({ ...ctx, deviceId: LOCK, codeId: 'c1' });

  it('a 200 without an access code is a retryable failure, never a success', async () => {
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_code":{"ok":1}}');
    expect(await getCode()).toEqual({ ok: false, code: 'malformed_response', retryable: true });
  });

  it('an HTML 502 is retryable', async () => {
    answer = (res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
    expect(await getCode()).toEqual({ ok: false, code: 'http_502', retryable: true });
  });

  it('an unknown Seam error type is a retryable failure under its own name', async () => {
    answer = (res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'something_new', message: 'x' } }));
    expect(await getCode()).toEqual({ ok: false, code: 'seam_something_new', retryable: true });
  });

  it('a 500 with Seam’s error body is retryable', async () => {
    answer = (res) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'internal_server_error', message: 'x' } }));
    expect(await getCode()).toEqual({ ok: false, code: 'http_500', retryable: true });
  });

  it('no answer in time is a retryable timeout', async () => {
    answer = () => {};
    expect(await getCode(200)).toEqual({ ok: false, code: 'timeout', retryable: true });
  });

  it('a removal Seam accepted but has not finished is removing, never absent', async () => {
    const json = (res: http.ServerResponse, status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const provider = createSeamProvider({ apiKey: API_KEY, endpoint: url });
    const code = { access_code_id: 'c1', device_id: LOCK, name: null, code: '1234', status: 'removing', errors: [] };
    answer = (res, path) =>
      path.startsWith('/access_codes/delete') ? json(res, 200, { ok: true }) : json(res, 200, { access_code: code });
    expect(await provider.removeCode({ ...ctx, deviceId: LOCK, codeId: 'c1' })).toEqual({
      ok: true,
      data: { state: 'removing' },
    });
    // Seam took the removal but the read after it failed: still not confirmed.
    answer = (res, path) =>
      path.startsWith('/access_codes/delete') ? json(res, 200, { ok: true }) : res.writeHead(503).end();
    expect(await provider.removeCode({ ...ctx, deviceId: LOCK, codeId: 'c1' })).toEqual({
      ok: true,
      data: { state: 'removing' },
    });
  });

  it('nobody listening is a retryable network error', async () => {
    const closed = createSeamProvider({ apiKey: API_KEY, endpoint: 'http://127.0.0.1:9' });
    expect(await closed.checkHealth(ctx)).toEqual({ ok: false, code: 'network_error', retryable: true });
  });
});
