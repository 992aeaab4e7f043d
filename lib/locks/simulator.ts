import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';

/**
 * The lock-vendor simulator: an HTTP server speaking a TTLock-style protocol with its quirks —
 * an OAuth token endpoint with `expires_in`, HTTP 200 answers carrying business errors in
 * `errcode`, 5xx, a ±5 minute clock check — plus fault injection and a call log for tests.
 *
 * Control API (tests and chaos runs):
 *   POST /_control/faults {latencyMs?, errorRate?, errorKind?: 'http500'|'busy'|'offline',
 *                          next?: {count, errcode?, httpStatus?, latencyMs?}, tokenExpiresIn?}
 *   (`next` with only `latencyMs`: the next calls succeed, slowly — an answer the client may never see)
 *   POST /_control/reset            — forget codes, calls and faults
 *   GET  /_control/calls            — the call log
 *   GET  /_control/codes            — the codes currently set, per lock
 */

export type SimulatorCall = {
  seq: number;
  at: string;
  endpoint: string;
  lockId: string | null;
  clientRef: string | null;
  keyboardPwdId: string | null;
  pinHash: string | null;
  outcome: 'ok' | 'error';
  errcode: number;
  httpStatus: number;
};

type Faults = {
  latencyMs: number;
  errorRate: number;
  errorKind: 'http500' | 'busy' | 'offline';
  next: { count: number; errcode?: number; httpStatus?: number; latencyMs?: number } | null;
  tokenExpiresIn: number;
};

type Code = { keyboardPwdId: string; pin: string; clientRef: string | null; startDate: number; endDate: number };

const DEFAULT_FAULTS: Faults = {
  latencyMs: 0,
  errorRate: 0,
  errorKind: 'http500',
  next: null,
  tokenExpiresIn: 7_776_000,
};
const CLOCK_TOLERANCE_MS = 5 * 60_000;
/**
 * The simulator knows exactly the client credentials it is given (`clients`: id → secret) — there is
 * no built-in one: the launcher makes a new secret on every start, tests pass their own.
 */
export function createSimulator(options: { clients: Record<string, string>; random?: () => number }): http.Server {
  const clients = new Map(Object.entries(options.clients));
  if ([...clients.values()].some((secret) => !secret)) throw new Error('every simulator client needs a secret');
  const random = options.random ?? Math.random;
  let faults: Faults = { ...DEFAULT_FAULTS };
  let calls: SimulatorCall[] = [];
  let seq = 0;
  const tokens = new Map<string, number>();
  const locks = new Map<string, Map<string, Code>>();

  const pinHash = (pin: unknown) =>
    typeof pin === 'string' ? createHash('sha256').update(pin).digest('hex').slice(0, 16) : null;

  function handleApi(
    endpoint: string,
    body: Record<string, unknown>,
    authorization: string | undefined,
  ): { status: number; body: Record<string, unknown> } {
    if (endpoint === '/oauth2/token') {
      const clientId = String(body.client_id ?? '');
      if (!clients.has(clientId) || clients.get(clientId) !== body.client_secret)
        return { status: 401, body: { errcode: 10001, errmsg: 'invalid client' } };
      const token = randomUUID();
      tokens.set(token, Date.now() + faults.tokenExpiresIn * 1000);
      return { status: 200, body: { access_token: token, expires_in: faults.tokenExpiresIn, token_type: 'Bearer' } };
    }
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const tokenExpiry = token ? tokens.get(token) : undefined;
    if (tokenExpiry === undefined) return { status: 200, body: { errcode: 10003, errmsg: 'invalid token' } };
    if (tokenExpiry <= Date.now()) return { status: 200, body: { errcode: 10004, errmsg: 'token expired' } };
    if (typeof body.date !== 'number' || Math.abs(body.date - Date.now()) > CLOCK_TOLERANCE_MS) {
      return { status: 200, body: { errcode: 80000, errmsg: 'date must be within 5 minutes of the server time' } };
    }
    const lockId = String(body.lockId ?? '');
    if (!lockId) return { status: 200, body: { errcode: -3001, errmsg: 'lockId is required' } };
    const codes = locks.get(lockId) ?? new Map<string, Code>();
    locks.set(lockId, codes);
    switch (endpoint) {
      case '/v3/keyboardPwd/add': {
        const pin = String(body.keyboardPwd ?? '');
        if (!/^\d{4,10}$/.test(pin)) return { status: 200, body: { errcode: -3006, errmsg: 'invalid passcode' } };
        if ([...codes.values()].some((c) => c.pin === pin))
          return { status: 200, body: { errcode: -3007, errmsg: 'passcode exists' } };
        const code: Code = {
          keyboardPwdId: String(100000 + ++seq),
          pin,
          clientRef: typeof body.clientRef === 'string' ? body.clientRef : null,
          startDate: Number(body.startDate),
          endDate: Number(body.endDate),
        };
        codes.set(code.keyboardPwdId, code);
        return { status: 200, body: { errcode: 0, keyboardPwdId: code.keyboardPwdId } };
      }
      case '/v3/keyboardPwd/delete': {
        const id = String(body.keyboardPwdId ?? '');
        if (!codes.delete(id)) return { status: 200, body: { errcode: -3009, errmsg: 'passcode not found' } };
        return { status: 200, body: { errcode: 0 } };
      }
      case '/v3/keyboardPwd/list':
        return {
          status: 200,
          body: {
            errcode: 0,
            list: [...codes.values()].map((c) => ({ keyboardPwdId: c.keyboardPwdId, clientRef: c.clientRef })),
          },
        };
      case '/v3/keyboardPwd/get': {
        const id = String(body.keyboardPwdId ?? '');
        return codes.has(id)
          ? { status: 200, body: { errcode: 0, keyboardPwdId: id, status: 'set' } }
          : { status: 200, body: { errcode: -3009, errmsg: 'passcode not found' } };
      }
      default:
        return { status: 404, body: { errcode: 404, errmsg: 'not found' } };
    }
  }

  /** An injected fault for this call, if any: the next-N queue first, then the random error rate. */
  function injectedFault(): { status: number; body: Record<string, unknown> } | null {
    if (
      faults.next &&
      faults.next.count > 0 &&
      faults.next.errcode === undefined &&
      faults.next.httpStatus === undefined
    )
      return null;
    if (faults.next && faults.next.count > 0) {
      faults.next.count -= 1;
      const { errcode, httpStatus } = faults.next;
      if (faults.next.count === 0) faults.next = null;
      if (httpStatus && httpStatus !== 200)
        return { status: httpStatus, body: { errcode: errcode ?? -1, errmsg: 'injected' } };
      return { status: 200, body: { errcode: errcode ?? -3003, errmsg: 'injected' } };
    }
    if (faults.errorRate > 0 && random() < faults.errorRate) {
      if (faults.errorKind === 'busy') return { status: 200, body: { errcode: -3003, errmsg: 'gateway busy' } };
      if (faults.errorKind === 'offline') return { status: 200, body: { errcode: -3036, errmsg: 'lock offline' } };
      return { status: 500, body: { errcode: -1, errmsg: 'internal error' } };
    }
    return null;
  }

  return http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const url = new URL(request.url ?? '/', 'http://simulator');
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        return send(400, { errcode: -2, errmsg: 'malformed JSON' });
      }

      if (url.pathname === '/health') return send(200, { ok: true });
      if (url.pathname === '/_control/calls') return send(200, { calls });
      if (url.pathname === '/_control/codes') {
        return send(200, {
          locks: Object.fromEntries(
            [...locks].map(([lockId, codes]) => [
              lockId,
              [...codes.values()].map((c) => ({
                keyboardPwdId: c.keyboardPwdId,
                clientRef: c.clientRef,
                pinHash: pinHash(c.pin),
              })),
            ]),
          ),
        });
      }
      if (url.pathname === '/_control/reset') {
        faults = { ...DEFAULT_FAULTS };
        calls = [];
        locks.clear();
        tokens.clear();
        return send(200, { ok: true });
      }
      if (url.pathname === '/_control/faults') {
        faults = { ...DEFAULT_FAULTS, ...(body as Partial<Faults>) };
        return send(200, { faults });
      }

      const slowNext =
        url.pathname !== '/oauth2/token' &&
        faults.next &&
        faults.next.count > 0 &&
        faults.next.errcode === undefined &&
        faults.next.httpStatus === undefined
          ? faults.next
          : null;
      if (slowNext) {
        slowNext.count -= 1;
        if (slowNext.count === 0) faults.next = null;
      }
      const delay = (slowNext?.latencyMs ?? 0) + faults.latencyMs;
      const respond = () => {
        const fault = url.pathname === '/oauth2/token' ? null : injectedFault();
        const result = fault ?? handleApi(url.pathname, body, request.headers.authorization);
        const errcode = typeof result.body.errcode === 'number' ? result.body.errcode : 0;
        calls.push({
          seq: calls.length + 1,
          at: new Date().toISOString(),
          endpoint: url.pathname,
          lockId: typeof body.lockId === 'string' ? body.lockId : null,
          clientRef: typeof body.clientRef === 'string' ? body.clientRef : null,
          keyboardPwdId:
            typeof result.body.keyboardPwdId === 'string'
              ? result.body.keyboardPwdId
              : typeof body.keyboardPwdId === 'string'
                ? body.keyboardPwdId
                : null,
          pinHash: pinHash(body.keyboardPwd),
          outcome: result.status === 200 && errcode === 0 ? 'ok' : 'error',
          errcode,
          httpStatus: result.status,
        });
        send(result.status, result.body);
      };
      if (delay > 0) setTimeout(respond, delay);
      else respond();
    });
  });
}

/** Starts a simulator on a free loopback port (tests), accepting the one client given. */
export async function startSimulator(client: {
  clientId: string;
  clientSecret: string;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createSimulator({ clients: { [client.clientId]: client.clientSecret } });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
