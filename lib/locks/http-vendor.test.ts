import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpVendor } from './http-vendor';
import { startSimulator, type SimulatorCall } from './simulator';
import { TokenCache } from './token-cache';

// The simulator has no built-in credential: this file starts it with its own.
const CLIENT = { clientId: 'unlockos', clientSecret: randomUUID() };
let sim: Awaited<ReturnType<typeof startSimulator>>;
const control = (path: string, body?: unknown) =>
  fetch(`${sim.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json());

beforeAll(async () => {
  sim = await startSimulator(CLIENT);
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await control('/_control/reset', {});
});

const input = (pin: string, clientRef = `key-${pin}`) => ({
  deviceRef: 'lock-1',
  pin,
  validFrom: new Date(),
  expiresAt: new Date(Date.now() + 3_600_000),
  clientRef,
  correlationId: `c-${pin}`,
});

describe('the HTTP lock vendor against the simulator', () => {
  it('programs, finds, checks and removes a code', async () => {
    const vendor = createHttpVendor({ baseUrl: sim.url, ...CLIENT, tokenCache: new TokenCache() });
    const programmed = await vendor.programCode(input('482913'));
    expect(programmed).toEqual({ ok: true, data: { vendorKeyId: expect.any(String) } });
    const id = programmed.ok ? programmed.data.vendorKeyId : '';
    expect(await vendor.findCode({ deviceRef: 'lock-1', clientRef: 'key-482913', correlationId: 'c' })).toEqual({
      ok: true,
      data: { vendorKeyId: id },
    });
    expect(await vendor.codeStatus({ deviceRef: 'lock-1', vendorKeyId: id, correlationId: 'c' })).toEqual({
      ok: true,
      data: { state: 'set' },
    });
    expect(await vendor.removeCode({ deviceRef: 'lock-1', vendorKeyId: id, correlationId: 'c' })).toEqual({
      ok: true,
      data: null,
    });
    // Removing again is not an error: the code is gone, which is what removal wants.
    expect(await vendor.removeCode({ deviceRef: 'lock-1', vendorKeyId: id, correlationId: 'c' })).toEqual({
      ok: true,
      data: null,
    });
    expect(await vendor.codeStatus({ deviceRef: 'lock-1', vendorKeyId: id, correlationId: 'c' })).toEqual({
      ok: true,
      data: { state: 'absent' },
    });
  });

  it('reports a business error carried by HTTP 200 as final, and a 5xx as retryable', async () => {
    const vendor = createHttpVendor({ baseUrl: sim.url, ...CLIENT, tokenCache: new TokenCache() });
    await vendor.programCode(input('111111', 'first'));
    expect(await vendor.programCode(input('111111', 'second'))).toEqual({
      ok: false,
      code: 'vendor_-3007',
      retryable: false,
    });
    await control('/_control/faults', { next: { count: 1, httpStatus: 503 } });
    expect(await vendor.programCode(input('222222'))).toMatchObject({ ok: false, code: 'http_503', retryable: true });
    await control('/_control/faults', { next: { count: 1, errcode: -3036 } });
    expect(await vendor.programCode(input('333333'))).toMatchObject({
      ok: false,
      code: 'vendor_-3036',
      retryable: true,
    });
  });

  it('never retries an authorization error, and fetches a fresh token afterwards', async () => {
    const wrong = createHttpVendor({
      baseUrl: sim.url,
      clientId: 'unlockos',
      clientSecret: 'wrong',
      tokenCache: new TokenCache(),
    });
    expect(await wrong.programCode(input('444444'))).toMatchObject({ ok: false, code: 'http_401', retryable: false });

    const cache = new TokenCache();
    const vendor = createHttpVendor({ baseUrl: sim.url, ...CLIENT, tokenCache: cache });
    await vendor.programCode(input('555555'));
    await control('/_control/reset', {}); // the vendor forgets every token it issued
    expect(await vendor.programCode(input('666666'))).toMatchObject({
      ok: false,
      code: 'vendor_10003',
      retryable: false,
    });
    expect(await vendor.programCode(input('666666'))).toMatchObject({ ok: true });
    const { calls } = (await control('/_control/calls')) as { calls: SimulatorCall[] };
    expect(calls.filter((c) => c.endpoint === '/oauth2/token')).toHaveLength(1);
  });

  it('uses one token while it is valid (expires_in honoured)', async () => {
    const vendor = createHttpVendor({ baseUrl: sim.url, ...CLIENT, tokenCache: new TokenCache() });
    for (const pin of ['700001', '700002', '700003']) await vendor.programCode(input(pin));
    let { calls } = (await control('/_control/calls')) as { calls: SimulatorCall[] };
    expect(calls.filter((c) => c.endpoint === '/oauth2/token')).toHaveLength(1);

    await control('/_control/faults', { tokenExpiresIn: 30 }); // shorter than the safety margin: never cached
    const shortLived = createHttpVendor({ baseUrl: sim.url, ...CLIENT, tokenCache: new TokenCache() });
    await control('/_control/reset', {});
    await control('/_control/faults', { tokenExpiresIn: 30 });
    for (const pin of ['800001', '800002']) await shortLived.programCode(input(pin));
    ({ calls } = (await control('/_control/calls')) as { calls: SimulatorCall[] });
    expect(calls.filter((c) => c.endpoint === '/oauth2/token')).toHaveLength(2);
  });

  it('times out a slow answer as retryable', async () => {
    const vendor = createHttpVendor({ baseUrl: sim.url, ...CLIENT, tokenCache: new TokenCache(), timeoutMs: 200 });
    await vendor.findCode({ deviceRef: 'lock-1', clientRef: 'x', correlationId: 'warm' });
    await control('/_control/faults', { next: { count: 1, latencyMs: 600 } });
    expect(await vendor.programCode(input('900001'))).toEqual({ ok: false, code: 'timeout', retryable: true });
  });
});
