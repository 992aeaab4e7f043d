import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLockSimulator, type LockSimulator } from '../../tooling/testing/lock-simulator';
import { classifyResponse, SUCCESS_SHAPES } from './classify';
import type { MalformedKind } from '../../tooling/simulator/lock-simulator';

// A door code is never marked set or removed on a guess: anything TTLock answers that is not
// recognisably a success — no errcode where one is needed, one of the wrong type, an empty or HTML
// body, a missing keyboardPwdId — is a failure.

const NOT_SUCCESSES: [string, number, unknown][] = [
  ['an empty object', 200, {}],
  ['an array', 200, []],
  ['a string errcode "0"', 200, { errcode: '0' }],
  ['a non-numeric errcode', 200, { errcode: 'ok' }],
  ['a null errcode', 200, { errcode: null }],
  ['a fractional errcode', 200, { errcode: 0.5 }],
  ['no body', 200, null],
  ['a bare string', 200, 'ok'],
  ['a bare number', 200, 0],
];

describe('classifying a TTLock answer', () => {
  for (const shape of ['add', 'done', 'page', 'passcode', 'token'] as const) {
    for (const [name, status, body] of NOT_SUCCESSES) {
      it(`${shape}: ${name} is a failure`, () => {
        expect(classifyResponse(status, body, SUCCESS_SHAPES[shape])).toMatchObject({ ok: false });
      });
    }
  }

  it('recognises each endpoint’s success by its documented shape, and only that', () => {
    expect(classifyResponse(200, { keyboardPwdId: 38001 }, SUCCESS_SHAPES.add)).toMatchObject({ ok: true });
    expect(classifyResponse(200, { errcode: 0, keyboardPwdId: 38001 }, SUCCESS_SHAPES.add)).toMatchObject({ ok: true });
    for (const id of ['38001', 0, -1, 1.5, null])
      expect(classifyResponse(200, { keyboardPwdId: id }, SUCCESS_SHAPES.add)).toMatchObject({
        ok: false,
        code: 'malformed_response',
      });
    expect(classifyResponse(200, { errcode: 0 }, SUCCESS_SHAPES.add)).toMatchObject({ ok: false });
    expect(classifyResponse(200, { errcode: 0, errmsg: 'none error message' }, SUCCESS_SHAPES.done)).toMatchObject({
      ok: true,
    });
    expect(classifyResponse(200, { errmsg: 'none error message' }, SUCCESS_SHAPES.done)).toMatchObject({ ok: false });
    expect(classifyResponse(200, { list: [], pages: 0 }, SUCCESS_SHAPES.page)).toMatchObject({ ok: true });
    expect(classifyResponse(200, { list: [] }, SUCCESS_SHAPES.page)).toMatchObject({ ok: false });
    expect(classifyResponse(200, { list: 'nope', pages: 1 }, SUCCESS_SHAPES.page)).toMatchObject({ ok: false });
    expect(
      classifyResponse(200, { keyboardPwd: '123456789', keyboardPwdId: 1 }, SUCCESS_SHAPES.passcode),
    ).toMatchObject({ ok: true });
    expect(classifyResponse(200, { keyboardPwd: 123456789, keyboardPwdId: 1 }, SUCCESS_SHAPES.passcode)).toMatchObject({
      ok: false,
    });
    expect(classifyResponse(200, { access_token: 't', expires_in: 100 }, SUCCESS_SHAPES.token)).toMatchObject({
      ok: true,
    });
    expect(classifyResponse(200, { access_token: '' }, SUCCESS_SHAPES.token)).toMatchObject({ ok: false });
  });
});

describe('the TTLock adapter against a TTLock that answers garbage', () => {
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

  const LOCK = '7100101';
  const ctx = { correlationId: 'garbage' };
  const window = () => ({
    validFrom: new Date(Date.now() + 3_600_000),
    expiresAt: new Date(Date.now() + 30 * 3_600_000),
  });

  const KINDS: MalformedKind[] = ['html', 'empty', 'truncated', 'empty-object', 'string-errcode'];
  for (const kind of KINDS) {
    it(`never reports a code set, removed, found or absent on ${kind} answers — and the lock keeps its code`, async () => {
      const provider = sim.provider();
      const kept = await provider.programCode({
        deviceId: LOCK,
        pin: '482913',
        clientRef: randomUUID(),
        ...window(),
        ...ctx,
      });
      expect(kept.ok).toBe(true);
      const codeId = kept.ok ? kept.data.codeId : '';
      const garbled = () => sim.control('/_control/faults', { locks: { [LOCK]: { malformed: kind } } });
      await garbled();

      expect(await provider.removeCode({ deviceId: LOCK, codeId, ...ctx })).toEqual({
        ok: false,
        code: 'malformed_response',
        retryable: true,
      });
      expect(
        await provider.programCode({ deviceId: LOCK, pin: '739164', clientRef: randomUUID(), ...window(), ...ctx }),
      ).toMatchObject({ ok: false });
      expect(await provider.listCodes({ deviceId: LOCK, ...ctx })).toMatchObject({ ok: false });
      expect(await provider.getCode({ deviceId: LOCK, codeId, ...ctx })).toMatchObject({ ok: false });
      expect(
        await provider.offlineCode!({ deviceId: LOCK, clientRef: randomUUID(), ...window(), ...ctx }),
      ).toMatchObject({ ok: false });
      // The whole account's answers garbled: the device list too.
      await sim.control('/_control/faults', { next: { count: 1, malformed: kind } });
      expect(await provider.listDevices(ctx)).toMatchObject({ ok: false });

      await sim.control('/_control/faults', {});
      expect((await sim.codes())[LOCK]!.map((c) => c.keyboardPwdId)).toEqual([codeId]);
    });
  }

  it('never takes `{errcode: 0}` without its keyboardPwdId for a set code, a listing or an offline PIN', async () => {
    const provider = sim.provider();
    await sim.control('/_control/faults', { locks: { [LOCK]: { malformed: 'bare-success' } } });
    expect(
      await provider.programCode({ deviceId: LOCK, pin: '482913', clientRef: randomUUID(), ...window(), ...ctx }),
    ).toEqual({ ok: false, code: 'malformed_response', retryable: true });
    expect(await provider.listCodes({ deviceId: LOCK, ...ctx })).toMatchObject({ ok: false });
    expect(await provider.getCode({ deviceId: LOCK, codeId: '38000001', ...ctx })).toMatchObject({ ok: false });
    expect(await provider.offlineCode!({ deviceId: LOCK, clientRef: randomUUID(), ...window(), ...ctx })).toMatchObject(
      { ok: false },
    );
  });

  it('never takes a sign-in without a token', async () => {
    const provider = sim.provider({ baseUrl: `${sim.url}/nowhere` });
    expect(await provider.checkHealth(ctx)).toEqual({ ok: false, code: 'http_404', retryable: false });
    expect(await provider.listDevices(ctx)).toMatchObject({ ok: false });
  });
});
