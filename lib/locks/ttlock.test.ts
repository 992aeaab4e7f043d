import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLockSimulator, type LockSimulator } from '../../tooling/testing/lock-simulator';
import { TokenCache } from './token-cache';

// The adapter against the simulator over real HTTP: TTLock's protocol on both sides, no mocks.
let sim: LockSimulator;
beforeAll(async () => {
  sim = await startLockSimulator();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await sim.control('/_control/reset', {});
});

const LOCK = '7100101'; // one of the simulator's (and the demo's) locks
const HOUR = 3_600_000;
const ctx = { correlationId: 'test' };
const pinHash = (pin: string) => createHash('sha256').update(pin).digest('hex').slice(0, 16);
const program = (pin: string, clientRef: string = randomUUID(), deviceId = LOCK) => ({
  deviceId,
  pin,
  validFrom: new Date(Date.now() + HOUR),
  expiresAt: new Date(Date.now() + 25 * HOUR),
  clientRef,
  correlationId: `c-${pin}`,
});
// Listing devices also reads the gateways (a lock is online only through one that is): not counted here.
const isGatewayRead = (endpoint: string) => endpoint.startsWith('/v3/gateway/');
// A call that is one request (listing devices also reads the gateways), to count tokens by.
const ONE_CALL = '/v3/lock/listKeyboardPwd';
const oneCall = (provider: ReturnType<LockSimulator['provider']>) => provider.listCodes({ deviceId: LOCK, ...ctx });
const endpoints = async () => (await sim.calls()).map((c) => c.endpoint).filter((e) => !isGatewayRead(e));

/** A call by another app on the same account (TTLock's own app, say), straight over the protocol. */
async function asAnotherApp(endpoint: string, fields: Record<string, string | number>): Promise<unknown> {
  const { clientId, clientSecret, username, password } = sim.account;
  const post = (path: string, form: Record<string, string | number>) =>
    fetch(`${sim.url}${path}`, {
      method: 'POST',
      body: new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])),
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
  const md5 = createHash('md5').update(password).digest('hex');
  const { access_token } = await post('/oauth2/token', { clientId, clientSecret, username, password: md5 });
  return post(endpoint, { clientId, accessToken: String(access_token), date: Date.now(), ...fields });
}

describe('signing in to TTLock', () => {
  it('sends the password as its lowercase MD5 and never in clear, and the call log keeps neither', async () => {
    const provider = sim.provider();
    expect(await provider.listDevices(ctx)).toMatchObject({ ok: true });
    const calls = await sim.calls();
    expect(
      calls.filter((c) => !isGatewayRead(c.endpoint)).map((c) => [c.endpoint, c.grantType, c.passwordForm, c.outcome]),
    ).toEqual([
      ['/oauth2/token', 'password', 'md5', 'ok'],
      ['/v3/lock/list', null, null, 'ok'],
    ]);
    const log = JSON.stringify(calls);
    expect(log).not.toContain(sim.account.password);
    expect(log).not.toContain(createHash('md5').update(sim.account.password).digest('hex'));
  });

  it('is refused with TTLock’s errcodes: a clear password (30005), a wrong one (10007), a wrong client secret (10001)', async () => {
    const token = (fields: Record<string, string>) =>
      fetch(`${sim.url}/oauth2/token`, { method: 'POST', body: new URLSearchParams(fields) }).then((r) => r.json());
    const { clientId, clientSecret, username, password } = sim.account;
    const md5 = createHash('md5').update(password).digest('hex');
    expect(await token({ clientId, clientSecret, username, password })).toMatchObject({ errcode: 30005 });
    // A wrong password for certain: its first digit changed (replacing it with '0' was no change when it was '0').
    const wrongMd5 = (md5[0] === '0' ? '1' : '0') + md5.slice(1);
    expect(await token({ clientId, clientSecret, username, password: wrongMd5 })).toMatchObject({
      errcode: 10007,
    });
    expect(await token({ clientId, clientSecret: 'wrong', username, password: md5 })).toMatchObject({ errcode: 10001 });
    expect(await token({ clientId, clientSecret, username, password: md5 })).toMatchObject({
      access_token: expect.stringMatching(/^[0-9a-f]{32}$/),
      refresh_token: expect.any(String),
      uid: expect.any(Number),
      expires_in: 7_776_000,
    });
  });

  it('never retries wrong credentials: one sign-in, no API call', async () => {
    const wrongPassword = sim.provider({ password: 'not-the-password' });
    expect(await wrongPassword.programCode(program('482913'))).toEqual({
      ok: false,
      code: 'invalid_credentials',
      retryable: false,
    });
    const wrongSecret = sim.provider({ clientSecret: 'not-the-secret' });
    expect(await wrongSecret.listDevices(ctx)).toEqual({ ok: false, code: 'invalid_client', retryable: false });
    expect(await endpoints()).toEqual(['/oauth2/token', '/oauth2/token']);
  });

  it('reuses one token while it is valid, and never caches one that lives less than the safety margin', async () => {
    const provider = sim.provider();
    for (let i = 0; i < 3; i++) await oneCall(provider);
    expect(await endpoints()).toEqual(['/oauth2/token', ONE_CALL, ONE_CALL, ONE_CALL]);

    await sim.control('/_control/reset', {});
    await sim.control('/_control/faults', { tokenExpiresIn: 30 });
    const shortLived = sim.provider();
    for (let i = 0; i < 2; i++) expect(await oneCall(shortLived)).toMatchObject({ ok: true });
    // Not cached: a new token each time — the second from the refresh token, not the password.
    expect((await sim.calls()).map((c) => c.grantType ?? c.endpoint)).toEqual([
      'password',
      ONE_CALL,
      'refresh_token',
      ONE_CALL,
    ]);
  });

  it('renews an expired token once (refresh token first) and goes on', async () => {
    const provider = sim.provider();
    await oneCall(provider);
    await sim.control('/_control/expire-tokens', {});
    expect(await oneCall(provider)).toMatchObject({ ok: true });
    const calls = (await sim.calls()).slice(2);
    expect(calls.map((c) => [c.endpoint, c.grantType, c.errcode])).toEqual([
      [ONE_CALL, null, 10004],
      ['/oauth2/token', 'refresh_token', 0],
      [ONE_CALL, null, 0],
    ]);
  });

  it('signs in with the password when the refresh token is refused too', async () => {
    const provider = sim.provider();
    await oneCall(provider);
    await sim.control('/_control/expire-tokens', { refresh: true });
    expect(await oneCall(provider)).toMatchObject({ ok: true });
    const calls = (await sim.calls()).slice(2);
    expect(calls.map((c) => [c.endpoint, c.grantType, c.errcode])).toEqual([
      [ONE_CALL, null, 10004],
      ['/oauth2/token', 'refresh_token', 10011],
      ['/oauth2/token', 'password', 0],
      [ONE_CALL, null, 0],
    ]);
  });

  it('gives up after one fresh token is refused as well, without retrying further', async () => {
    const provider = sim.provider();
    await provider.listDevices(ctx);
    await sim.control('/_control/faults', { next: { count: 5, errcode: 10004, endpoint: '/v3/lock/list' } });
    expect(await provider.listDevices(ctx)).toEqual({ ok: false, code: 'token_invalid', retryable: false });
    expect((await endpoints()).slice(2)).toEqual(['/v3/lock/list', '/oauth2/token', '/v3/lock/list']);
  });

  it('checks health with a fresh sign-in every time, never a cached token', async () => {
    const provider = sim.provider();
    expect(await provider.checkHealth(ctx)).toEqual({ ok: true, data: null });
    expect(await provider.checkHealth(ctx)).toEqual({ ok: true, data: null });
    expect((await sim.calls()).map((c) => c.grantType)).toEqual(['password', 'password']);
    expect(await sim.provider({ password: 'wrong' }).checkHealth(ctx)).toMatchObject({
      ok: false,
      code: 'invalid_credentials',
    });
  });
});

describe('every call’s date', () => {
  it('is refused by TTLock beyond five minutes of its clock (80000), classified as clock_skew', async () => {
    const provider = sim.provider();
    await sim.control('/_control/faults', { clockSkewMs: 4 * 60_000 });
    expect(await provider.listDevices(ctx)).toMatchObject({ ok: true });
    await sim.control('/_control/faults', { clockSkewMs: -6 * 60_000 });
    expect(await provider.listDevices(ctx)).toEqual({ ok: false, code: 'clock_skew', retryable: false });
    expect((await sim.calls()).at(-1)).toMatchObject({ endpoint: '/v3/lock/list', errcode: 80000 });
  });
});

describe('devices', () => {
  it('are TTLock’s locks with their battery (electricQuantity) and gateway', async () => {
    await sim.control('/_control/faults', { locks: { '7200001': { electricQuantity: 7, hasGateway: false } } });
    const result = await sim.provider().listDevices(ctx);
    expect(result.ok).toBe(true);
    const devices = result.ok ? result.data : [];
    expect(devices.find((d) => d.deviceId === '7200002')).toEqual({
      deviceId: '7200002',
      name: 'Harbor Meeting Room B',
      online: true,
      offlineReason: null,
      batteryLevel: 18,
      canProgramOnline: true,
      canProgramOffline: true,
      supportsBackupCodes: false,
    });
    expect(devices.find((d) => d.deviceId === '7200001')).toMatchObject({
      batteryLevel: 7,
      online: false,
      canProgramOnline: false,
    });
  });

  it('are online only through a gateway that is: TTLock keeps hasGateway for a while after its gateway went', async () => {
    // 7100101 and 7100102 share one gateway; 7100201 has its own, which is offline; 7200002 is out of
    // its gateway's reach while that gateway serves 7200001.
    const gatewayOf = async (lockId: string) =>
      ((await sim.control('/_control/locks')) as { locks: { lockId: number; gatewayId: number | null }[] }).locks.find(
        (l) => String(l.lockId) === lockId,
      )!.gatewayId;
    await sim.control('/_control/faults', {
      gateways: { [String(await gatewayOf('7100201'))]: { offline: true } },
      locks: { '7200002': { offline: 'gateway' } },
    });
    const result = await sim.provider().listDevices(ctx);
    const devices = result.ok ? result.data : [];
    const lock = (id: string) => devices.find((d) => d.deviceId === id);
    expect(lock('7100101')).toMatchObject({ online: true, offlineReason: null });
    expect(lock('7100201')).toMatchObject({ online: false, offlineReason: 'gateway_offline', canProgramOnline: true });
    expect(lock('7200001')).toMatchObject({ online: true });
    expect(lock('7200002')).toMatchObject({ online: false, offlineReason: 'gateway_offline' });
    // What the lock list alone says about them: still a gateway.
    const listed = (await asAnotherApp('/v3/lock/list', { pageNo: 1, pageSize: 100 })) as {
      list: { lockId: number; hasGateway: number }[];
    };
    expect(listed.list.find((l) => l.lockId === 7100201)!.hasGateway).toBe(1);
    // And calls through that gateway fail as offline.
    expect(await sim.provider().programCode(program('731905', randomUUID(), '7100201'))).toMatchObject({
      ok: false,
      code: 'gateway_offline',
    });
  });

  it('are read page by page', async () => {
    const many = await startLockSimulator({
      locks: Array.from({ length: 230 }, (_, i) => ({ lockId: 500_000 + i, electricQuantity: i % 101 })),
    });
    try {
      const result = await many.provider().listDevices(ctx);
      expect(result.ok && result.data.length).toBe(230);
      expect(result.ok && result.data[229]).toMatchObject({ deviceId: '500229', batteryLevel: 229 % 101 });
      expect((await many.calls()).filter((c) => c.endpoint === '/v3/lock/list')).toHaveLength(3);
    } finally {
      await many.close();
    }
  });

  it('are named by TTLock lock ids only: anything else is refused before any call', async () => {
    expect(await sim.provider().programCode(program('482913', randomUUID(), 'lock-sakura-101'))).toEqual({
      ok: false,
      code: 'invalid_device_id',
      retryable: false,
    });
    expect(await sim.calls()).toEqual([]);
  });
});

describe('passcodes', () => {
  it('are added through the gateway, listed, read, deleted, and a second delete finds them absent', async () => {
    const provider = sim.provider();
    const clientRef = randomUUID();
    const input = program('482913', clientRef);
    const added = await provider.programCode(input);
    expect(added).toEqual({ ok: true, data: { codeId: expect.stringMatching(/^\d+$/), state: 'set' } });
    const codeId = added.ok ? added.data.codeId : '';
    expect((await sim.codes())[LOCK]).toEqual([
      expect.objectContaining({
        keyboardPwdId: codeId,
        keyboardPwdName: `unlockos:${clientRef}`,
        clientRef,
        keyboardPwdType: 3,
        isCustom: 1,
        startDate: input.validFrom.getTime(),
        endDate: input.expiresAt.getTime(),
        pinHash: pinHash('482913'),
      }),
    ]);

    const code = {
      codeId,
      clientRef,
      state: 'set',
      error: null,
      validFrom: input.validFrom,
      expiresAt: input.expiresAt,
    };
    expect(await provider.listCodes({ deviceId: LOCK, ...ctx })).toEqual({ ok: true, data: [code] });
    expect(await provider.getCode({ deviceId: LOCK, codeId, ...ctx })).toEqual({ ok: true, data: code });

    expect(await provider.removeCode({ deviceId: LOCK, codeId, ...ctx })).toEqual({
      ok: true,
      data: { state: 'absent' },
    });
    expect((await sim.codes())[LOCK]).toEqual([]);
    // Removing again is no error: TTLock says the passcode does not exist (-2009), which is what removal wants.
    expect(await provider.removeCode({ deviceId: LOCK, codeId, ...ctx })).toEqual({
      ok: true,
      data: { state: 'absent' },
    });
    expect((await sim.calls()).at(-1)).toMatchObject({ endpoint: '/v3/keyboardPwd/delete', errcode: -2009 });
    expect(await provider.getCode({ deviceId: LOCK, codeId, ...ctx })).toEqual({ ok: true, data: null });
  });

  it('change their window in place through the gateway (/v3/keyboardPwd/change): same code, same PIN', async () => {
    const provider = sim.provider();
    const clientRef = randomUUID();
    const input = program('561234', clientRef);
    const added = await provider.programCode(input);
    const codeId = added.ok ? added.data.codeId : '';
    const later = { validFrom: input.validFrom, expiresAt: new Date(input.expiresAt.getTime() + 24 * HOUR) };
    expect(await provider.updateCodeWindow!({ deviceId: LOCK, codeId, ...later, ...ctx })).toEqual({
      ok: true,
      data: { state: 'set' },
    });
    expect((await sim.codes())[LOCK]).toEqual([
      expect.objectContaining({
        keyboardPwdId: codeId,
        clientRef,
        pinHash: pinHash('561234'),
        startDate: later.validFrom.getTime(),
        endDate: later.expiresAt.getTime(),
      }),
    ]);
    expect((await sim.calls()).filter((c) => c.endpoint.startsWith('/v3/keyboardPwd/')).map((c) => c.endpoint)).toEqual(
      ['/v3/keyboardPwd/add', '/v3/keyboardPwd/change'],
    );
    // Through a gateway that is offline: retryable, and the lock keeps the window it had.
    await sim.control('/_control/faults', { locks: { [LOCK]: { offline: 'gateway' } } });
    const sooner = { validFrom: input.validFrom, expiresAt: new Date(input.expiresAt.getTime() - 12 * HOUR) };
    expect(await provider.updateCodeWindow!({ deviceId: LOCK, codeId, ...sooner, ...ctx })).toEqual({
      ok: false,
      code: 'gateway_offline',
      retryable: true,
    });
    expect((await sim.codes())[LOCK]![0]!.endDate).toBe(later.expiresAt.getTime());
    await sim.control('/_control/faults', {});
    // A code the lock no longer has is not found, for good.
    await provider.removeCode({ deviceId: LOCK, codeId, ...ctx });
    expect(await provider.updateCodeWindow!({ deviceId: LOCK, codeId, ...sooner, ...ctx })).toEqual({
      ok: false,
      code: 'code_not_found',
      retryable: false,
    });
  });

  it('lists codes we did not make as such (clientRef null), across pages', async () => {
    const provider = sim.provider();
    for (let i = 0; i < 205; i++)
      expect(await provider.programCode(program(String(100000 + i)))).toMatchObject({ ok: true });
    // Someone adds one of their own in TTLock's app.
    expect(
      await asAnotherApp('/v3/keyboardPwd/add', {
        lockId: LOCK,
        keyboardPwd: '999999',
        keyboardPwdName: 'Cleaner',
        keyboardPwdType: 2,
        addType: 2,
      }),
    ).toEqual({ keyboardPwdId: expect.any(Number) });
    const listed = await provider.listCodes({ deviceId: LOCK, ...ctx });
    expect(listed.ok && listed.data.length).toBe(206);
    expect(listed.ok && listed.data.filter((c) => c.clientRef === null)).toHaveLength(1);
    expect((await sim.calls()).filter((c) => c.endpoint === '/v3/lock/listKeyboardPwd')).toHaveLength(2);
  });

  it('refuses a PIN the lock already has as duplicate_code_on_device, for good', async () => {
    const provider = sim.provider();
    expect(await provider.programCode(program('111111'))).toMatchObject({ ok: true });
    expect(await provider.programCode(program('111111'))).toEqual({
      ok: false,
      code: 'duplicate_code_on_device',
      retryable: false,
    });
    expect((await sim.codes())[LOCK]).toHaveLength(1);
  });

  it('takes the PIN’s -3007 for its own code when an earlier call whose answer was lost set it', async () => {
    const provider = sim.provider({ timeoutMs: 200 });
    await provider.listDevices(ctx); // signed in: the next call is the slow one
    await sim.control('/_control/faults', { next: { count: 1, latencyMs: 500, endpoint: '/v3/keyboardPwd/add' } });
    const input = program('654321');
    expect(await provider.programCode(input)).toEqual({ ok: false, code: 'timeout', retryable: true });
    await new Promise((resolve) => setTimeout(resolve, 700)); // the lost call lands on the lock
    const again = await provider.programCode(input);
    const codes = (await sim.codes())[LOCK]!;
    expect(codes).toHaveLength(1);
    expect(again).toEqual({ ok: true, data: { codeId: codes[0]!.keyboardPwdId, state: 'set' } });
    expect((await sim.calls()).slice(-2).map((c) => [c.endpoint, c.errcode])).toEqual([
      ['/v3/keyboardPwd/add', -3007],
      ['/v3/lock/listKeyboardPwd', 0],
    ]);
    // Another key's call with that PIN is refused all the same.
    expect(await provider.programCode(program('654321'))).toMatchObject({ code: 'duplicate_code_on_device' });
  });

  it('retries a gateway or lock that is offline or busy, and changes nothing meanwhile', async () => {
    const provider = sim.provider();
    const kept = await provider.programCode(program('222222'));
    const codeId = kept.ok ? kept.data.codeId : '';
    const cases = [
      [{ offline: 'gateway' }, 'gateway_offline'],
      [{ offline: 'lock' }, 'device_offline'],
      [{ busy: 'gateway' }, 'gateway_busy'],
      [{ busy: 'lock' }, 'device_busy'],
      [{ hasGateway: false }, 'no_gateway_near_device'],
    ] as const;
    for (const [fault, code] of cases) {
      await sim.control('/_control/faults', { locks: { [LOCK]: fault } });
      expect(await provider.programCode(program('333333'))).toEqual({ ok: false, code, retryable: true });
      expect(await provider.removeCode({ deviceId: LOCK, codeId, ...ctx })).toEqual({
        ok: false,
        code,
        retryable: true,
      });
    }
    // The whole simulator's gateway at once, too.
    await sim.control('/_control/faults', { offline: 'gateway' });
    expect(await provider.programCode(program('333333', randomUUID(), '7100102'))).toMatchObject({
      code: 'gateway_offline',
    });
    await sim.control('/_control/faults', {});
    expect((await sim.codes())[LOCK]!.map((c) => c.keyboardPwdId)).toEqual([codeId]);
  });

  it('stops for good when the account’s API calls are used up (30006, 30007)', async () => {
    const provider = sim.provider();
    await sim.control('/_control/faults', { quotaExhausted: true });
    expect(await provider.programCode(program('444444'))).toEqual({
      ok: false,
      code: 'quota_exceeded',
      retryable: false,
    });
    await sim.control('/_control/faults', { next: { count: 1, errcode: 30006 } });
    expect(await provider.listDevices(ctx)).toEqual({ ok: false, code: 'quota_exceeded', retryable: false });
    expect((await sim.codes())[LOCK]).toEqual([]);
  });

  it('retries HTTP 5xx and a slow answer', async () => {
    const provider = sim.provider({ timeoutMs: 200 });
    await provider.listDevices(ctx); // signed in: the next call is the one that is slow
    await sim.control('/_control/faults', { next: { count: 1, httpStatus: 503 } });
    expect(await provider.programCode(program('555555'))).toEqual({ ok: false, code: 'http_503', retryable: true });
    await sim.control('/_control/faults', { next: { count: 1, latencyMs: 600 } });
    expect(await provider.programCode(program('555555'))).toEqual({ ok: false, code: 'timeout', retryable: true });
    // The simulator still answers that call: let it land before the next test resets it.
    await new Promise((resolve) => setTimeout(resolve, 700));
  });

  it('shares one sign-in among calls made at once', async () => {
    const provider = sim.provider({ tokenCache: new TokenCache() });
    await Promise.all([1, 2, 3].map(() => provider.listDevices(ctx)));
    expect((await endpoints()).filter((e) => e === '/oauth2/token')).toHaveLength(1);
  });
});

describe('offline (algorithmic) passcodes', () => {
  it('come from /v3/keyboardPwd/get for whole hours inside the window, and need no gateway', async () => {
    const provider = sim.provider();
    await sim.control('/_control/faults', { offline: 'gateway' });
    const clientRef = randomUUID();
    const validFrom = new Date(Math.floor(Date.now() / HOUR) * HOUR + 90 * 60_000); // hh:30, an hour and a half on
    const expiresAt = new Date(validFrom.getTime() + 24 * HOUR);
    const result = await provider.offlineCode!({ deviceId: LOCK, validFrom, expiresAt, clientRef, ...ctx });
    expect(result).toEqual({
      ok: true,
      data: { codeId: expect.stringMatching(/^\d+$/), pin: expect.stringMatching(/^\d{9}$/) },
    });
    const pin = result.ok ? result.data.pin : '';
    expect((await sim.codes())[LOCK]).toEqual([
      expect.objectContaining({
        clientRef,
        isCustom: 0,
        keyboardPwdType: 3,
        // Rounded inwards: never valid before the stay, nor after it.
        startDate: validFrom.getTime() + 30 * 60_000,
        endDate: expiresAt.getTime() - 30 * 60_000,
        pinHash: pinHash(pin),
      }),
    ]);
    expect(JSON.stringify(await sim.calls())).not.toContain(pin);
  });

  it('are refused for a window without one whole hour in it', async () => {
    const validFrom = new Date(Math.floor(Date.now() / HOUR) * HOUR + 10 * 60_000);
    const expiresAt = new Date(validFrom.getTime() + 80 * 60_000);
    expect(
      await sim.provider().offlineCode!({ deviceId: LOCK, validFrom, expiresAt, clientRef: randomUUID(), ...ctx }),
    ).toEqual({ ok: false, code: 'window_too_short', retryable: false });
  });
});

describe('lock records', () => {
  const open = (body: Record<string, unknown>, lockId = LOCK) =>
    sim.control(`/_control/locks/${lockId}/open`, body) as Promise<{ record: { recordId: number; lockDate: number } }>;

  it('are read from /v3/lockRecord/list as openings and lockings, a passcode with the PIN typed', async () => {
    const provider = sim.provider();
    const pin = '4817290';
    expect(await provider.programCode({ ...program(pin), validFrom: new Date(Date.now() - HOUR) })).toMatchObject({
      ok: true,
    });
    const byPin = (await open({ pin })).record;
    const wrong = (await open({ pin: '111111' })).record;
    const byKey = (await open({ method: 'key', at: Date.now() - 10 * 60_000 })).record;
    const locked = (
      (await sim.control(`/_control/locks/${LOCK}/lock`, { method: 'button' })) as { record: typeof byKey }
    ).record;
    const read = await provider.listDoorRecords!({ deviceId: LOCK, from: new Date(Date.now() - HOUR), ...ctx });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const byId = new Map(read.data.map((r) => [r.eventId, r]));
    expect(byId.get(String(byPin.recordId))).toMatchObject({ kind: 'unlocked', method: 'code', pin, success: true });
    // A wrong PIN is a failed try: a record, neither an opening nor a locking.
    expect(byId.get(String(wrong.recordId))).toMatchObject({ kind: null, success: false });
    expect(byId.get(String(byKey.recordId))).toMatchObject({
      kind: 'unlocked',
      method: 'manual',
      pin: null,
      occurredAt: new Date(byKey.lockDate),
    });
    expect(byId.get(String(locked.recordId))).toMatchObject({ kind: 'locked', method: 'manual' });
    // The call log keeps no PIN of a listing.
    expect((await sim.calls()).filter((c) => c.endpoint === '/v3/lockRecord/list').map((c) => c.pinHash)).toEqual([
      null,
    ]);
  });

  it('are read page by page from a start date on, only once the gateway uploaded them', async () => {
    const provider = sim.provider();
    const start = Date.now() - 2 * HOUR;
    for (let i = 0; i < 205; i++) await open({ method: 'app', at: start + i * 1000 });
    await open({ method: 'app', at: start - 60_000 });
    const kept = (await open({ method: 'app', at: start + HOUR, held: true })).record;
    const read = await provider.listDoorRecords!({ deviceId: LOCK, from: new Date(start), ...ctx });
    expect(read.ok && read.data.length).toBe(205);
    expect((await sim.calls()).filter((c) => c.endpoint === '/v3/lockRecord/list')).toHaveLength(2);
    await sim.control(`/_control/locks/${LOCK}/upload`, {});
    const again = await provider.listDoorRecords!({ deviceId: LOCK, from: new Date(start), ...ctx });
    expect(again.ok && again.data.some((r) => r.eventId === String(kept.recordId))).toBe(true);
  });

  it('keep what a lock behind an offline gateway did until it is reached again', async () => {
    const provider = sim.provider();
    await sim.control('/_control/faults', { locks: { [LOCK]: { offline: 'gateway' } } });
    const during = (await open({ method: 'key' })).record;
    expect(await provider.listDoorRecords!({ deviceId: LOCK, from: new Date(Date.now() - HOUR), ...ctx })).toEqual({
      ok: true,
      data: [],
    });
    await sim.control('/_control/faults', {});
    expect(await sim.control(`/_control/locks/${LOCK}/upload`, {})).toEqual({ uploaded: 1 });
    const read = await provider.listDoorRecords!({ deviceId: LOCK, from: new Date(Date.now() - HOUR), ...ctx });
    expect(read.ok && read.data.map((r) => r.eventId)).toEqual([String(during.recordId)]);
  });

  it('fail whole when a page fails or is not TTLock’s: never a partial read', async () => {
    const provider = sim.provider();
    for (let i = 0; i < 3; i++) await open({ method: 'app' });
    const from = new Date(Date.now() - HOUR);
    await sim.control('/_control/faults', { next: { count: 1, endpoint: '/v3/lockRecord/list', malformed: 'html' } });
    expect(await provider.listDoorRecords!({ deviceId: LOCK, from, ...ctx })).toMatchObject({
      ok: false,
      code: 'malformed_response',
      retryable: true,
    });
    await sim.control('/_control/faults', { next: { count: 1, endpoint: '/v3/lockRecord/list', errcode: 90000 } });
    expect(await provider.listDoorRecords!({ deviceId: LOCK, from, ...ctx })).toMatchObject({
      ok: false,
      code: 'provider_internal_error',
    });
    expect(await provider.listDoorRecords!({ deviceId: 'released:x', from, ...ctx })).toMatchObject({
      ok: false,
      code: 'invalid_device_id',
    });
  });
});

describe('remote unlock through the gateway', () => {
  const records = async () =>
    ((await sim.control('/_control/records')) as { records: { lockId: number; recordType: number }[] }).records;

  it('is done on errcode 0, and the lock records a gateway unlock (type 12)', async () => {
    expect(await sim.provider().unlockDoor!({ deviceId: LOCK, ...ctx })).toEqual({
      ok: true,
      data: { actionId: null, status: 'done' },
    });
    expect((await records()).map((r) => [r.lockId, r.recordType])).toEqual([[Number(LOCK), 12]]);
  });

  it('fails with TTLock’s code when the gateway or lock cannot be reached, and opens nothing', async () => {
    const provider = sim.provider();
    await sim.control('/_control/faults', { locks: { [LOCK]: { offline: 'gateway' } } });
    expect(await provider.unlockDoor!({ deviceId: LOCK, ...ctx })).toEqual({
      ok: false,
      code: 'gateway_offline',
      retryable: true,
    });
    await sim.control('/_control/faults', { locks: { [LOCK]: { busy: 'lock' } } });
    expect(await provider.unlockDoor!({ deviceId: LOCK, ...ctx })).toMatchObject({ ok: false, code: 'device_busy' });
    expect(await records()).toEqual([]);
  });

  it('is not_supported for a lock without a gateway (-2012) or a model that cannot (-4043)', async () => {
    const provider = sim.provider();
    await sim.control('/_control/faults', { locks: { [LOCK]: { hasGateway: false } } });
    expect(await provider.unlockDoor!({ deviceId: LOCK, ...ctx })).toEqual({
      ok: false,
      code: 'not_supported',
      retryable: false,
    });
    await sim.control('/_control/faults', { locks: { [LOCK]: { remoteUnlock: false } } });
    expect(await provider.unlockDoor!({ deviceId: LOCK, ...ctx })).toMatchObject({ code: 'not_supported' });
  });

  it('is pending, not failed, when the answer is lost after the gateway may have opened the door', async () => {
    const provider = sim.provider({ timeoutMs: 300 });
    await sim.control('/_control/faults', { next: { count: 1, endpoint: '/v3/lock/unlock', latencyMs: 600 } });
    expect(await provider.unlockDoor!({ deviceId: LOCK, ...ctx })).toEqual({
      ok: true,
      data: { actionId: null, status: 'pending' },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await records()).map((r) => r.recordType)).toEqual([12]);
  });
});

describe('the simulator, beyond what the adapter asks of it', () => {
  it('keeps a failure meant for one lock (`next.lockId`) for that lock: calls about another lock do not use it up', async () => {
    const provider = sim.provider();
    await sim.control('/_control/faults', { next: { count: 1, errcode: 30006, lockId: 7100102 } });
    expect(await provider.programCode(program('616161'))).toMatchObject({ ok: true });
    expect(await provider.programCode(program('626262', randomUUID(), '7100102'))).toEqual({
      ok: false,
      code: 'quota_exceeded',
      retryable: false,
    });
    expect(await provider.programCode(program('636363', randomUUID(), '7100102'))).toMatchObject({ ok: true });
  });

  it('answers /v3/lock/detail, and GET with a query string as TTLock does', async () => {
    expect(await asAnotherApp('/v3/lock/detail', { lockId: '7200002' })).toMatchObject({
      lockId: 7200002,
      lockAlias: 'Harbor Meeting Room B',
      electricQuantity: 18,
      hasGateway: 1,
      keyboardPwdVersion: 4,
    });
    const { clientId, clientSecret, username, password } = sim.account;
    const signIn = await fetch(`${sim.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        clientId,
        clientSecret,
        username,
        password: createHash('md5').update(password).digest('hex'),
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const query = new URLSearchParams({
      clientId,
      accessToken: signIn.access_token,
      pageNo: '1',
      pageSize: '2',
      date: String(Date.now()),
    });
    expect(await fetch(`${sim.url}/v3/lock/list?${query}`).then((r) => r.json())).toMatchObject({
      pageNo: 1,
      pageSize: 2,
      pages: 3,
      total: 5,
      list: [{ lockId: 7100101 }, { lockId: 7100102 }],
    });
    // A lock id TTLock could never have is a bad parameter, not a new lock.
    expect(await asAnotherApp('/v3/lock/detail', { lockId: 'lock-sakura-101' })).toMatchObject({ errcode: -3 });
  });

  it('changes a passcode’s name alone in the cloud, its PIN only through a reachable gateway', async () => {
    const added = (await asAnotherApp('/v3/keyboardPwd/add', {
      lockId: LOCK,
      keyboardPwd: '246810',
      keyboardPwdName: 'Cleaner',
      startDate: Date.now(),
      endDate: Date.now() + HOUR,
      addType: 2,
    })) as { keyboardPwdId: number };
    await asAnotherApp('/v3/keyboardPwd/add', { lockId: LOCK, keyboardPwd: '135790', keyboardPwdType: 2, addType: 2 });
    const change = (fields: Record<string, string | number>) =>
      asAnotherApp('/v3/keyboardPwd/change', { lockId: LOCK, keyboardPwdId: added.keyboardPwdId, ...fields });
    await sim.control('/_control/faults', { offline: 'gateway' });
    expect(await change({ keyboardPwdName: 'Cleaner (Mon)' })).toMatchObject({ errcode: 0 });
    expect(await change({ newKeyboardPwd: '975310', changeType: 2 })).toMatchObject({ errcode: -3002 });
    await sim.control('/_control/faults', {});
    expect(await change({ newKeyboardPwd: '135790', changeType: 2 })).toMatchObject({ errcode: -3007 });
    expect(await change({ newKeyboardPwd: '975310', changeType: 2 })).toMatchObject({ errcode: 0 });
    expect(
      await asAnotherApp('/v3/keyboardPwd/change', { lockId: LOCK, keyboardPwdId: 1, keyboardPwdName: 'x' }),
    ).toMatchObject({
      errcode: -2009,
    });
    expect((await sim.codes())[LOCK]!.find((c) => c.keyboardPwdId === String(added.keyboardPwdId))).toMatchObject({
      keyboardPwdName: 'Cleaner (Mon)',
      pinHash: pinHash('975310'),
    });
  });
});
