import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyResponse, SUCCESS_SHAPES } from './classify';
import { createHttpVendor } from './http-vendor';
import { TokenCache } from './token-cache';

// A door code is never marked set or removed on a guess: anything the lock provider answers that is
// not recognisably a success — no code, a code of the wrong type, an empty or HTML body — is a failure.

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

describe('classifying a lock provider answer', () => {
  for (const endpoint of ['add', 'delete', 'list', 'get'] as const) {
    for (const [name, status, body] of NOT_SUCCESSES) {
      it(`${endpoint}: ${name} is a failure`, () => {
        expect(classifyResponse(status, body, SUCCESS_SHAPES[endpoint])).toMatchObject({ ok: false });
      });
    }
  }

  it('recognises each endpoint’s success by its shape, and only that', () => {
    expect(classifyResponse(200, { errcode: 0, keyboardPwdId: 1 }, SUCCESS_SHAPES.add)).toMatchObject({ ok: true });
    expect(classifyResponse(200, { keyboardPwdId: '100200' }, SUCCESS_SHAPES.add)).toMatchObject({ ok: true });
    expect(classifyResponse(200, { errcode: 0 }, SUCCESS_SHAPES.add)).toMatchObject({
      ok: false,
      code: 'malformed_response',
    });
    expect(classifyResponse(200, { errcode: 0 }, SUCCESS_SHAPES.delete)).toMatchObject({ ok: true });
    expect(classifyResponse(200, { errmsg: 'none error message' }, SUCCESS_SHAPES.delete)).toMatchObject({ ok: false });
    expect(classifyResponse(200, { list: [] }, SUCCESS_SHAPES.list)).toMatchObject({ ok: true });
    expect(classifyResponse(200, { list: 'nope' }, SUCCESS_SHAPES.list)).toMatchObject({ ok: false });
    expect(classifyResponse(200, { access_token: 't', expires_in: 100 }, SUCCESS_SHAPES.token)).toMatchObject({
      ok: true,
    });
    expect(classifyResponse(200, { access_token: '' }, SUCCESS_SHAPES.token)).toMatchObject({ ok: false });
    expect(classifyResponse(200, { errcode: -3007, errmsg: 'exists' }, SUCCESS_SHAPES.add)).toMatchObject({
      ok: false,
      code: 'vendor_-3007',
    });
  });
});

describe('the HTTP lock client against a provider that answers garbage', () => {
  let server: http.Server;
  let url = '';
  let answer: { status: number; contentType: string; body: string } = {
    status: 200,
    contentType: 'application/json',
    body: '{}',
  };
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        if (request.url === '/oauth2/token') {
          response.writeHead(200, { 'content-type': 'application/json' });
          return response.end(JSON.stringify({ access_token: 'token', expires_in: 7200 }));
        }
        response.writeHead(answer.status, { 'content-type': answer.contentType });
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    answer = { status: 200, contentType: 'application/json', body: '{}' };
  });

  const bodies: [string, string, string][] = [
    ['an empty body', 'application/json', ''],
    ['an HTML page', 'text/html', '<!doctype html><html><body>Maintenance</body></html>'],
    ['an empty object', 'application/json', '{}'],
    ['an errcode of the wrong type', 'application/json', '{"errcode":"0"}'],
    ['a JSON null', 'application/json', 'null'],
  ];
  for (const [name, contentType, body] of bodies) {
    it(`never reports a code removed, set, found or present on ${name}`, async () => {
      answer = { status: 200, contentType, body };
      const vendor = createHttpVendor({ baseUrl: url, clientId: 'c', clientSecret: 's', tokenCache: new TokenCache() });
      const ref = { deviceRef: 'lock-1', correlationId: 'c' };
      expect(await vendor.removeCode({ ...ref, vendorKeyId: '1' })).toMatchObject({ ok: false });
      expect(
        await vendor.programCode({
          ...ref,
          pin: '123456',
          validFrom: new Date(),
          expiresAt: new Date(Date.now() + 3_600_000),
          clientRef: 'k',
        }),
      ).toMatchObject({ ok: false });
      expect(await vendor.findCode({ ...ref, clientRef: 'k' })).toMatchObject({ ok: false });
      expect(await vendor.codeStatus({ ...ref, vendorKeyId: '1' })).toMatchObject({ ok: false });
    });
  }
});
