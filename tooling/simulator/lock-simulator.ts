import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { clientRefOf } from '../../lib/locks/provider';

/**
 * The lock-provider simulator: an HTTP server speaking TTLock's open platform (cloud API v3) as its
 * documents describe it (euopen.ttlock.com, "Cloud API V3"), plus fault injection and a call log
 * for tests and chaos runs.
 *
 * The protocol: form-encoded POSTs (a GET with a query string works too); `POST /oauth2/token`
 * with `clientId`, `clientSecret`, `username` and `password` = lowercase hex MD5 (refresh with
 * `grant_type=refresh_token`); every other call carries `clientId`, `accessToken` and `date` (ms,
 * within ±5 minutes of the server's clock, else errcode 80000). Business failures are HTTP 200
 * with `errcode` ≠ 0 and `errmsg`; successes carry their fields (`/v3/keyboardPwd/add` answers only
 * `{keyboardPwdId}`, `/v3/keyboardPwd/delete` `{errcode: 0}`). Endpoints: /v3/lock/list,
 * /v3/lock/detail, /v3/lock/listKeyboardPwd, /v3/keyboardPwd/add, /delete, /change and /get (an
 * algorithmic passcode for a period, no gateway needed), /v3/gateway/list and /v3/gateway/listLock,
 * /v3/lock/unlock (through the gateway: a remote unlock, recorded like TTLock records it) and
 * /v3/lockRecord/list (the lock's records the cloud holds: `{list:[{recordId, lockId, recordTypeFromLock,
 * recordType, success, username, keyboardPwd, lockDate, serverDate, electricQuantity}], pageNo, pageSize,
 * pages, total}`, newest `lockDate` first, `startDate`/`endDate` filtering on `lockDate`, at most 200 a page).
 *
 * Lock records: a lock keeps what happened at its door (`lockDate`, the lock's clock) and its gateway uploads
 * it to the cloud (`serverDate`); only uploaded records are listed. A lock without a reachable gateway keeps
 * its records (at most 500, the oldest squeezed out, as TTLock's locks do) until it is reached again
 * (`/_control/locks/{lockId}/upload`), so records reach the cloud late, with a `lockDate` long before their
 * `serverDate` — as real gateways upload them. Record ids are unique across restarts (they start from the
 * clock), so a product that stored yesterday's records never mistakes today's for them. Like TTLock's cloud it keeps
 * six months of records; the call log keeps the latest 50 000 calls.
 *
 * Where it departs from TTLock: every user it knows sees the same locks (one account's), and a lock
 * id it has never seen is created on first use (`autoCreateLocks`, on by default) instead of
 * answering -1003, so any numeric device id a test or the demo uses exists. Lock ids are TTLock's:
 * whole numbers; anything else is -3 (invalid parameter).
 *
 * Control API (tests and chaos runs; JSON bodies):
 *   POST /_control/faults {latencyMs?, errorRate?, errorKind?: 'http500'|'busy'|'offline'|'malformed',
 *                          next?: {count, endpoint?, lockId?, errcode?, httpStatus?, malformed?, latencyMs?},
 *                          tokenExpiresIn?, clockSkewMs?, quotaExhausted?, offline?, busy?,
 *                          locks?: {[lockId]: {offline?, busy?, electricQuantity?, hasGateway?,
 *                                              latencyMs?, httpStatus?, malformed?, remoteUnlock?}},
 *                          gateways?: {[gatewayId]: {offline?: true}}}
 *   (replaces every fault; `{}` clears them. `next` with only `latencyMs`: the next calls succeed,
 *   slowly — an answer the client may never see; with `lockId`, only calls about that lock take a
 *   failure from it, so another caller's call cannot use it up. `offline`/`busy`: 'gateway' (-3002/-3003) or
 *   'lock' (-3036/-3037), for calls through the gateway. `malformed`: 'html' | 'empty' | 'truncated'
 *   | 'empty-object' | 'string-errcode' | 'bare-success'. An injected failure never executes the call.
 *   Gateways: every lock with one is served by the gateway of its hundred (lock id ÷ 100: 7100101 and
 *   7100102 share one). A gateway `offline` answers -3002 for its locks' calls and `isOnline: 0` in
 *   /v3/gateway/list; a lock's `offline: 'gateway'` is that lock out of its gateway's reach (-3002, and
 *   missing from /v3/gateway/listLock). Like TTLock, /v3/lock/list keeps saying `hasGateway: 1`.)
 *   POST /_control/expire-tokens {refresh?} — every access token expires now (10004); with
 *                                    `refresh: true` every refresh token is revoked too (10011)
 *   POST /_control/locks/{lockId}/open {pin?, method?, at?, held?} — someone opens the door: with `pin`, a
 *                                    passcode typed on the keypad (a passcode of that lock live at `at` opens it:
 *                                    record type 4, success 1, `username` the passcode's name; any other PIN is a
 *                                    failed record, success 0); else `method` 'app' (1), 'key' (10, a mechanical
 *                                    key), 'gateway' (12), 'card' (7), 'fingerprint' (8), 'button' (46). `at`
 *                                    (ms or ISO; now by default) is the lock's clock; `held: true` keeps the record
 *                                    on the lock (not uploaded yet), as does a lock its gateway cannot reach.
 *                                    Answers `{record}` (never the PIN).
 *   POST /_control/locks/{lockId}/lock {method?, at?, held?} — the door locked: 'app' (11), 'passcode' (34),
 *                                    'key' (36), 'auto' (45, the default), 'button' (47)
 *   POST /_control/locks/{lockId}/upload — the lock's gateway uploads every record it kept: `{uploaded}`
 *   GET  /_control/records          — every record, uploaded or kept on its lock (without PINs)
 *   POST /_control/reset            — forget codes, calls, tokens, faults and auto-created locks
 *   GET  /_control/calls            — the call log (a PIN as a short hash; never a password or token)
 *   GET  /_control/codes            — the passcodes on each lock
 *   GET  /_control/locks            — the locks
 */

export type MalformedKind = 'html' | 'empty' | 'truncated' | 'empty-object' | 'string-errcode' | 'bare-success';
type Where = 'gateway' | 'lock';

export type SimulatorCall = {
  seq: number;
  at: string;
  endpoint: string;
  /** For /oauth2/token: the grant asked for. */
  grantType: 'password' | 'refresh_token' | null;
  /** For a password grant: whether the password arrived as lowercase hex MD5 (never stored itself). */
  passwordForm: 'md5' | 'other' | 'absent' | null;
  lockId: string | null;
  clientRef: string | null;
  keyboardPwdId: string | null;
  pinHash: string | null;
  outcome: 'ok' | 'error';
  /** The answer's errcode: 0 for a success, null for an answer that was not JSON with a whole-number errcode. */
  errcode: number | null;
  httpStatus: number;
};

/** A passcode as `GET /_control/codes` shows it (the PIN as a short hash). */
export type SimulatorCode = {
  keyboardPwdId: string;
  keyboardPwdName: string;
  clientRef: string | null;
  keyboardPwdType: number;
  isCustom: 0 | 1;
  startDate: number;
  endDate: number;
  pinHash: string | null;
};

export type SimulatorLockInput = {
  lockId: number;
  lockAlias?: string;
  electricQuantity?: number;
  /** Whether a gateway is paired with the lock (codes can be set remotely). */
  hasGateway?: boolean;
};

type LockFaults = {
  offline?: Where;
  busy?: Where;
  electricQuantity?: number;
  hasGateway?: boolean;
  latencyMs?: number;
  httpStatus?: number;
  malformed?: MalformedKind;
  /** `false`: the lock's model cannot be unlocked through a gateway (-4043 from /v3/lock/unlock). */
  remoteUnlock?: boolean;
};

type Faults = {
  latencyMs: number;
  errorRate: number;
  errorKind: 'http500' | 'busy' | 'offline' | 'malformed';
  next: {
    count: number;
    endpoint?: string;
    lockId?: number | string;
    errcode?: number;
    httpStatus?: number;
    malformed?: MalformedKind;
    latencyMs?: number;
  } | null;
  tokenExpiresIn: number;
  clockSkewMs: number;
  quotaExhausted: boolean;
  offline?: Where;
  busy?: Where;
  locks: Record<string, LockFaults>;
  gateways: Record<string, { offline?: boolean }>;
};

type Passcode = {
  keyboardPwdId: number;
  keyboardPwd: string;
  keyboardPwdName: string;
  keyboardPwdType: number;
  startDate: number;
  endDate: number;
  sendDate: number;
  isCustom: 0 | 1;
  senderUsername: string;
};

/** One lock record as TTLock's cloud keeps it; `serverDate` null while it is still on the lock only. */
type LockRecord = {
  recordId: number;
  lockId: number;
  recordTypeFromLock: number;
  recordType: number;
  success: 0 | 1;
  username: string;
  keyboardPwd: string;
  lockDate: number;
  serverDate: number | null;
  electricQuantity: number;
};

/** A record as `GET /_control/records` and the control answers show it: no PIN. */
export type SimulatorRecord = Omit<LockRecord, 'keyboardPwd'>;

type Lock = {
  lockId: number;
  lockName: string;
  lockAlias: string;
  lockMac: string;
  electricQuantity: number;
  hasGateway: boolean;
  date: number;
  codes: Map<number, Passcode>;
  records: LockRecord[];
};

/**
 * TTLock's cloud record types (`recordType`) for what a door can do, with the type the lock itself writes
 * (`recordTypeFromLock`, read by the app SDK): opening methods, then locking methods.
 */
const OPEN_RECORDS: Record<string, { recordType: number; fromLock: number }> = {
  app: { recordType: 1, fromLock: 1 },
  passcode: { recordType: 4, fromLock: 4 },
  card: { recordType: 7, fromLock: 17 },
  fingerprint: { recordType: 8, fromLock: 20 },
  key: { recordType: 10, fromLock: 27 },
  gateway: { recordType: 12, fromLock: 28 },
  button: { recordType: 46, fromLock: 46 },
};
const LOCK_RECORDS: Record<string, { recordType: number; fromLock: number }> = {
  app: { recordType: 11, fromLock: 26 },
  passcode: { recordType: 34, fromLock: 34 },
  key: { recordType: 36, fromLock: 36 },
  auto: { recordType: 45, fromLock: 45 },
  button: { recordType: 47, fromLock: 47 },
};
/** A lock keeps this many records; older ones are squeezed out before its gateway uploads them. */
const RECORDS_ON_LOCK = 500;
/** TTLock's cloud keeps six months of records. */
const RECORDS_KEPT_MS = 183 * 24 * 3_600_000;
/** The call log keeps this many of the latest calls. */
const MAX_CALLS_KEPT = 50_000;

/** The demo's locks (tooling/seed/seed-demo.ts): present from the start, with their names and batteries. */
export const DEFAULT_LOCKS: readonly SimulatorLockInput[] = [
  { lockId: 7100101, lockAlias: 'Sakura Inn 101', electricQuantity: 92 },
  { lockId: 7100102, lockAlias: 'Sakura Inn 102', electricQuantity: 76 },
  { lockId: 7100201, lockAlias: 'Sakura Inn 201', electricQuantity: 64 },
  { lockId: 7200001, lockAlias: 'Harbor Meeting Room A', electricQuantity: 100 },
  { lockId: 7200002, lockAlias: 'Harbor Meeting Room B', electricQuantity: 18 },
];

const DEFAULT_FAULTS: Faults = {
  latencyMs: 0,
  errorRate: 0,
  errorKind: 'http500',
  next: null,
  tokenExpiresIn: 7_776_000, // TTLock's default: 90 days
  clockSkewMs: 0,
  quotaExhausted: false,
  locks: {},
  gateways: {},
};
const CLOCK_TOLERANCE_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;
const MAX_LOCK_ID = 2_147_483_647; // TTLock ids are Java ints
/** TTLock's limit of custom passcodes a lock stores (-3009 beyond it). */
const CUSTOM_PASSCODE_SPACE = 250;

/** TTLock's documented messages for the errcodes the simulator answers. */
const ERRMSG: Record<number, string> = {
  [-3]: 'Invalid Parameter',
  [-1003]: 'Lock does not exist',
  [-2009]: 'Passcode does not exist',
  [-2012]: 'The lock is not connected to any gateway',
  [-3002]: 'The gateway is offline. Please check and try again',
  [-3003]: 'The gateway is busy. Please try again later',
  [-3006]: 'Invalid passcode length, must be 4 to 9 digits',
  [-3007]: 'The same passcode already exists. Please use another one',
  [-3009]: 'No more custom passcodes can be added, please delete unused ones first',
  [-3036]: 'The lock is offline. Please check and try again',
  [-3037]: 'The lock is busy. Please try again later',
  [-4043]: 'The function is not supported for this lock',
  10000: 'client_id does not exist',
  10001: 'invalid client',
  10003: 'token does not exist',
  10004: 'token is invalid or revoked',
  10007: 'invalid account or invalid password',
  10010: 'unsupported grant_type',
  10011: 'invalid refresh_token',
  20007: 'invalid keyboardPwdVersion',
  30005: 'password must be md5 encrypted',
  30006: 'exceeds the restrictions of API call number',
  30007: 'exceeded the monthly limit for API calls',
  80000: 'date must be current time, in 5 minutes',
  90000: 'internal server error',
};

type Answer =
  | { status: number; body: Record<string, unknown> }
  | { status: number; raw: string; contentType: string; errcode: number | null };

const ok = (body: Record<string, unknown>): Answer => ({ status: 200, body });
const fail = (errcode: number): Answer => ({
  status: 200,
  body: { errcode, errmsg: ERRMSG[errcode] ?? 'failed', description: ERRMSG[errcode] ?? 'failed' },
});
const DONE = ok({ errcode: 0, errmsg: 'none error message', description: 'none error message or means yes' });

function malformedAnswer(kind: MalformedKind): Answer {
  const json = (raw: string, errcode: number | null = null): Answer => ({
    status: 200,
    raw,
    contentType: 'application/json;charset=UTF-8',
    errcode,
  });
  switch (kind) {
    case 'html':
      return {
        status: 200,
        raw: '<!doctype html><html><body><h1>Service temporarily unavailable</h1></body></html>',
        contentType: 'text/html',
        errcode: null,
      };
    case 'empty':
      return json('');
    case 'truncated':
      return json('{"keyboardPwdId":');
    case 'empty-object':
      return json('{}');
    case 'string-errcode':
      return json('{"errcode":"0","errmsg":"none error message"}');
    case 'bare-success':
      return json('{"errcode":0,"errmsg":"none error message"}', 0);
  }
}

const httpError = (status: number): Answer => ({
  status,
  raw: `<html><body><h1>${status}</h1></body></html>`,
  contentType: 'text/html',
  errcode: null,
});

const md5 = (value: string) => createHash('md5').update(value).digest('hex');
const pinHash = (pin: string | null | undefined) =>
  pin ? createHash('sha256').update(pin).digest('hex').slice(0, 16) : null;

/** A whole number in a form field, or undefined when absent or not one. */
function intParam(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  return value !== null && /^-?\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * Creates the simulator. It knows exactly the client credentials (`clients`: id → secret) and the
 * TTLock accounts (`users`: username → password) it is given — none is built in: the launcher makes
 * new ones on every start, tests pass their own.
 */
export function createSimulator(options: {
  clients: Record<string, string>;
  users: Record<string, string>;
  locks?: readonly SimulatorLockInput[];
  autoCreateLocks?: boolean;
  random?: () => number;
}): http.Server {
  const clients = new Map(Object.entries(options.clients));
  if ([...clients.values()].some((secret) => !secret)) throw new Error('every simulator client needs a secret');
  const users = new Map(Object.entries(options.users));
  if (users.size === 0 || [...users.values()].some((password) => !password))
    throw new Error('the simulator needs at least one user, each with a password');
  const uids = new Map([...users.keys()].map((username, i) => [username, 1000 + i]));
  const random = options.random ?? Math.random;
  const autoCreate = options.autoCreateLocks ?? true;
  const initialLocks = options.locks ?? DEFAULT_LOCKS;

  let faults: Faults = { ...DEFAULT_FAULTS };
  let calls: SimulatorCall[] = [];
  let callSeq = 0;
  let idSeq = 0;
  let lastRecordId = 0;
  const accessTokens = new Map<string, { clientId: string; username: string; expiresAt: number }>();
  const refreshTokens = new Map<string, { clientId: string; username: string }>();
  const locks = new Map<number, Lock>();

  /** The server's clock, which a fault can set off from the real one. */
  const now = () => Date.now() + faults.clockSkewMs;

  function addLock(input: SimulatorLockInput): Lock {
    const mac = createHash('sha1').update(String(input.lockId)).digest('hex').slice(0, 12).toUpperCase();
    const lock: Lock = {
      lockId: input.lockId,
      lockName: `M201_${mac.slice(6).toLowerCase()}`,
      lockAlias: input.lockAlias ?? `Lock ${input.lockId}`,
      lockMac: mac.match(/../g)!.join(':'),
      electricQuantity: input.electricQuantity ?? 100,
      hasGateway: input.hasGateway ?? true,
      date: Date.now(),
      codes: new Map(),
      records: [],
    };
    locks.set(lock.lockId, lock);
    return lock;
  }
  const resetLocks = () => {
    locks.clear();
    for (const lock of initialLocks) addLock(lock);
  };
  resetLocks();

  const lockFaults = (lockId: number | undefined): LockFaults =>
    lockId === undefined ? {} : (faults.locks[String(lockId)] ?? {});

  /** The lock a call names: -3 for an id that is not a whole number, -1003 for one that does not exist. */
  function lockOf(params: URLSearchParams): Lock | Answer {
    const lockId = intParam(params, 'lockId');
    if (lockId === undefined || lockId <= 0 || lockId > MAX_LOCK_ID) return fail(-3);
    const lock = locks.get(lockId);
    if (lock) return lock;
    return autoCreate ? addLock({ lockId }) : fail(-1003);
  }

  const hasGateway = (lock: Lock) => lockFaults(lock.lockId).hasGateway ?? lock.hasGateway;
  /** The gateway of a lock's hundred, for a lock that has one. */
  const gatewayIdOf = (lock: Lock): number | null => (hasGateway(lock) ? Math.floor(lock.lockId / 100) : null);
  const gatewayOnline = (gatewayId: number) =>
    faults.offline !== 'gateway' && faults.gateways[String(gatewayId)]?.offline !== true;
  const battery = (lock: Lock) => lockFaults(lock.lockId).electricQuantity ?? lock.electricQuantity;

  /** Why the gateway cannot reach the lock now, if it cannot. */
  function gatewayFailure(lock: Lock): Answer | null {
    if (!hasGateway(lock)) return fail(-2012);
    if (!gatewayOnline(gatewayIdOf(lock)!)) return fail(-3002);
    const offline = lockFaults(lock.lockId).offline ?? faults.offline;
    if (offline) return fail(offline === 'gateway' ? -3002 : -3036);
    const busy = lockFaults(lock.lockId).busy ?? faults.busy;
    if (busy) return fail(busy === 'gateway' ? -3003 : -3037);
    return null;
  }

  /** A new record id: TTLock's are Longs; these start from the clock, so they never repeat across restarts. */
  function nextRecordId(): number {
    lastRecordId = Math.max(lastRecordId + 1, Date.now() * 1000);
    return lastRecordId;
  }

  /**
   * A record of the lock: uploaded at once when its gateway reaches it (and `held` is not asked), else kept on the
   * lock until `/_control/locks/{lockId}/upload` (the oldest squeezed out past what a lock keeps).
   */
  function addRecord(
    lock: Lock,
    input: { recordType: number; fromLock: number; success: 0 | 1; username: string; pin: string; at: number },
    held: boolean,
  ): LockRecord {
    const uploaded = !held && gatewayFailure(lock) === null;
    const record: LockRecord = {
      recordId: nextRecordId(),
      lockId: lock.lockId,
      recordTypeFromLock: input.fromLock,
      recordType: input.recordType,
      success: input.success,
      username: input.username,
      keyboardPwd: input.pin,
      lockDate: input.at,
      serverDate: uploaded ? now() : null,
      electricQuantity: battery(lock),
    };
    lock.records.push(record);
    if (lock.records.length % 256 === 0) {
      const archived = now() - RECORDS_KEPT_MS;
      lock.records = lock.records.filter((r) => r.serverDate === null || r.lockDate >= archived);
    }
    const kept = lock.records.filter((r) => r.serverDate === null);
    if (kept.length > RECORDS_ON_LOCK) {
      const squeezed = new Set(kept.slice(0, kept.length - RECORDS_ON_LOCK));
      lock.records = lock.records.filter((r) => !squeezed.has(r));
    }
    return record;
  }

  const recordView = ({ keyboardPwd: _pin, ...record }: LockRecord): SimulatorRecord => record;

  /** The records the cloud holds for a lock (uploaded ones), newest lockDate first, optionally within dates. */
  function listRecords(params: URLSearchParams, lock: Lock): Answer {
    const bound = (name: string): number | null | undefined => {
      if (!params.has(name) || params.get(name) === '') return null;
      const value = intParam(params, name);
      return value === undefined || value < 0 ? undefined : value;
    };
    const startDate = bound('startDate');
    const endDate = bound('endDate');
    const recordType = params.has('recordType') ? intParam(params, 'recordType') : null;
    if (startDate === undefined || endDate === undefined || recordType === undefined) return fail(-3);
    const listed = lock.records
      .filter(
        (r) =>
          r.serverDate !== null &&
          r.serverDate <= now() &&
          (startDate === null || r.lockDate >= startDate) &&
          (endDate === null || r.lockDate <= endDate) &&
          (recordType === null || r.recordType === recordType),
      )
      .sort((a, b) => b.lockDate - a.lockDate || b.recordId - a.recordId);
    return page(listed, params, 200);
  }

  /** Opens the door through its gateway now (TTLock answers once the lock did); the lock records it. */
  function unlockRemotely(params: URLSearchParams, lock: Lock): Answer {
    if (lockFaults(lock.lockId).remoteUnlock === false) return fail(-4043);
    const unreachable = gatewayFailure(lock);
    if (unreachable) return unreachable;
    addRecord(lock, { ...OPEN_RECORDS.gateway!, success: 1, username: username(params), pin: '', at: now() }, false);
    return DONE;
  }

  /** The lock's clock at an event: a time a test gave (ms or ISO), else now. */
  function eventTime(value: unknown): number | null {
    if (value === undefined || value === null) return now();
    const at = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
    return Number.isSafeInteger(at) && at > 0 ? at : null;
  }

  /** Someone at the door (`/_control/locks/{lockId}/open|lock`): the record the lock writes. */
  function doorEvent(lock: Lock, action: 'open' | 'lock', body: Record<string, unknown>): Answer {
    const at = eventTime(body.at);
    if (at === null) return { status: 400, body: { error: 'at must be a time (ms or ISO)' } };
    const held = body.held === true;
    const pin = typeof body.pin === 'string' ? body.pin : null;
    if (action === 'open' && pin !== null) {
      // A passcode opens the door when it is on this lock and live at that moment (a permanent one always).
      const code = [...lock.codes.values()].find(
        (c) => c.keyboardPwd === pin && (c.endDate === 0 || (c.startDate <= at && at < c.endDate)),
      );
      const record = addRecord(
        lock,
        { ...OPEN_RECORDS.passcode!, success: code ? 1 : 0, username: code?.keyboardPwdName ?? '', pin, at },
        held,
      );
      return ok({ record: recordView(record) });
    }
    const table = action === 'open' ? OPEN_RECORDS : LOCK_RECORDS;
    const method = typeof body.method === 'string' ? body.method : action === 'open' ? 'app' : 'auto';
    const kind = table[method];
    if (!kind || (action === 'open' && method === 'passcode'))
      return { status: 400, body: { error: `unknown ${action} method: ${method}` } };
    const record = addRecord(lock, { ...kind, success: 1, username: [...users.keys()][0]!, pin: '', at }, held);
    return ok({ record: recordView(record) });
  }

  function issueTokens(clientId: string, username: string) {
    const accessToken = randomBytes(16).toString('hex');
    const refreshToken = randomBytes(16).toString('hex');
    accessTokens.set(accessToken, { clientId, username, expiresAt: now() + faults.tokenExpiresIn * 1000 });
    refreshTokens.set(refreshToken, { clientId, username });
    return { access_token: accessToken, refresh_token: refreshToken, expires_in: faults.tokenExpiresIn };
  }

  function token(params: URLSearchParams): Answer {
    const clientId = params.get('clientId') ?? '';
    if (!clients.has(clientId)) return fail(10000);
    if (clients.get(clientId) !== params.get('clientSecret')) return fail(10001);
    const grant = params.get('grant_type') ?? 'password';
    if (grant === 'refresh_token') {
      const presented = params.get('refresh_token') ?? '';
      const entry = refreshTokens.get(presented);
      if (!entry || entry.clientId !== clientId) return fail(10011);
      refreshTokens.delete(presented); // a refresh token is good for one refresh
      return ok(issueTokens(clientId, entry.username));
    }
    if (grant !== 'password') return fail(10010);
    const username = params.get('username') ?? '';
    const password = params.get('password') ?? '';
    if (!/^[0-9a-f]{32}$/.test(password)) return fail(30005);
    const known = users.get(username);
    if (known === undefined || md5(known) !== password) return fail(10007);
    return ok({ ...issueTokens(clientId, username), uid: uids.get(username) });
  }

  /** The caller's token and clock, checked the way every TTLock API call is. */
  function authorize(params: URLSearchParams): Answer | null {
    const clientId = params.get('clientId') ?? '';
    if (!clients.has(clientId)) return fail(10000);
    const entry = accessTokens.get(params.get('accessToken') ?? '');
    if (!entry || entry.clientId !== clientId) return fail(10003);
    if (entry.expiresAt <= now()) return fail(10004);
    const date = intParam(params, 'date');
    if (date === undefined || Math.abs(date - now()) > CLOCK_TOLERANCE_MS) return fail(80000);
    if (faults.quotaExhausted) return fail(30007);
    return null;
  }

  const username = (params: URLSearchParams) => accessTokens.get(params.get('accessToken') ?? '')?.username ?? '';

  function page<T>(items: T[], params: URLSearchParams, maxPageSize: number): Answer {
    const pageNo = intParam(params, 'pageNo');
    const pageSize = intParam(params, 'pageSize');
    if (!pageNo || pageNo < 1 || !pageSize || pageSize < 1 || pageSize > maxPageSize) return fail(-3);
    return ok({
      list: items.slice((pageNo - 1) * pageSize, pageNo * pageSize),
      pageNo,
      pageSize,
      pages: Math.ceil(items.length / pageSize),
      total: items.length,
    });
  }

  const lockView = (lock: Lock) => ({
    lockId: lock.lockId,
    lockName: lock.lockName,
    lockAlias: lock.lockAlias,
    lockMac: lock.lockMac,
    electricQuantity: battery(lock),
    featureValue: 'F44354CD5F3',
    hasGateway: hasGateway(lock) ? 1 : 0,
    lockData: createHash('sha256').update(`lockData:${lock.lockId}`).digest('base64'),
    groupId: 0,
    groupName: '',
    date: lock.date,
  });

  const passcodeView = (lock: Lock, code: Passcode) => ({
    keyboardPwdId: code.keyboardPwdId,
    lockId: lock.lockId,
    keyboardPwd: code.keyboardPwd,
    keyboardPwdName: code.keyboardPwdName,
    keyboardPwdVersion: 4,
    keyboardPwdType: code.keyboardPwdType,
    startDate: code.startDate,
    endDate: code.endDate,
    sendDate: code.sendDate,
    isCustom: code.isCustom,
    senderUsername: code.senderUsername,
  });

  const pinTaken = (lock: Lock, pin: string) => [...lock.codes.values()].some((c) => c.keyboardPwd === pin);

  /** A period's dates: both required, whole numbers, end after start. */
  function period(params: URLSearchParams): { startDate: number; endDate: number } | null {
    const startDate = intParam(params, 'startDate');
    const endDate = intParam(params, 'endDate');
    if (startDate === undefined || endDate === undefined || startDate <= 0 || endDate <= startDate) return null;
    return { startDate, endDate };
  }

  function addPasscode(params: URLSearchParams, lock: Lock): Answer {
    const pin = params.get('keyboardPwd') ?? '';
    if (!/^\d{4,9}$/.test(pin)) return fail(-3006);
    const type = intParam(params, 'keyboardPwdType') ?? 3;
    if (type !== 2 && type !== 3) return fail(-3);
    const dates = type === 3 ? period(params) : { startDate: 0, endDate: 0 };
    if (!dates) return fail(-3);
    const addType = intParam(params, 'addType') ?? 1;
    if (addType !== 1 && addType !== 2) return fail(-4043);
    if (addType === 2) {
      const unreachable = gatewayFailure(lock);
      if (unreachable) return unreachable;
    }
    if (pinTaken(lock, pin)) return fail(-3007);
    if ([...lock.codes.values()].filter((c) => c.isCustom === 1).length >= CUSTOM_PASSCODE_SPACE) return fail(-3009);
    const code: Passcode = {
      keyboardPwdId: 38_000_000 + ++idSeq,
      keyboardPwd: pin,
      keyboardPwdName: params.get('keyboardPwdName') ?? '',
      keyboardPwdType: type,
      ...dates,
      sendDate: now(),
      isCustom: 1,
      senderUsername: username(params),
    };
    lock.codes.set(code.keyboardPwdId, code);
    return ok({ keyboardPwdId: code.keyboardPwdId });
  }

  function deletePasscode(params: URLSearchParams, lock: Lock): Answer {
    const id = intParam(params, 'keyboardPwdId');
    if (id === undefined) return fail(-3);
    const deleteType = intParam(params, 'deleteType') ?? 1;
    if (deleteType !== 1 && deleteType !== 2) return fail(-4043);
    if (!lock.codes.has(id)) return fail(-2009);
    if (deleteType === 2) {
      const unreachable = gatewayFailure(lock);
      if (unreachable) return unreachable;
    }
    lock.codes.delete(id);
    return DONE;
  }

  function changePasscode(params: URLSearchParams, lock: Lock): Answer {
    const id = intParam(params, 'keyboardPwdId');
    if (id === undefined) return fail(-3);
    const code = lock.codes.get(id);
    if (!code) return fail(-2009);
    const name = params.get('keyboardPwdName');
    const newPin = params.get('newKeyboardPwd');
    const hasDates = params.has('startDate') || params.has('endDate');
    if (newPin !== null && !/^\d{4,9}$/.test(newPin)) return fail(-3006);
    const dates = hasDates ? period(params) : null;
    if (hasDates && !dates) return fail(-3);
    if (newPin !== null || hasDates) {
      // Changing what the lock holds goes through the gateway; a new name alone stays in the cloud.
      if ((intParam(params, 'changeType') ?? 1) === 2) {
        const unreachable = gatewayFailure(lock);
        if (unreachable) return unreachable;
      }
      if (newPin !== null && newPin !== code.keyboardPwd && pinTaken(lock, newPin)) return fail(-3007);
    }
    if (name !== null) code.keyboardPwdName = name;
    if (newPin !== null) code.keyboardPwd = newPin;
    if (dates) Object.assign(code, dates);
    return DONE;
  }

  /** An algorithmic passcode for a period: made in the cloud, valid on the lock without a gateway. */
  function getPasscode(params: URLSearchParams, lock: Lock): Answer {
    const version = intParam(params, 'keyboardPwdVersion');
    if (params.has('keyboardPwdVersion') && (version === undefined || version < 1 || version > 4)) return fail(20007);
    const type = intParam(params, 'keyboardPwdType');
    if (type !== 1 && type !== 2 && type !== 3) return fail(-3);
    const startDate = intParam(params, 'startDate');
    if (startDate === undefined || startDate <= 0) return fail(-3);
    let endDate = 0;
    if (type === 3) {
      const dates = period(params);
      if (!dates) return fail(-3);
      endDate = Math.floor(dates.endDate / HOUR_MS) * HOUR_MS;
    }
    // TTLock keeps only whole hours of a random passcode's period: 19:20 becomes 19:00.
    const start = Math.floor(startDate / HOUR_MS) * HOUR_MS;
    if (type === 3 && endDate <= start) return fail(-3);
    let pin = '';
    do pin = String(Math.floor(random() * 900_000_000) + 100_000_000);
    while (pinTaken(lock, pin));
    const code: Passcode = {
      keyboardPwdId: 38_000_000 + ++idSeq,
      keyboardPwd: pin,
      keyboardPwdName: params.get('keyboardPwdName') ?? '',
      keyboardPwdType: type,
      startDate: start,
      endDate,
      sendDate: now(),
      isCustom: 0,
      senderUsername: username(params),
    };
    lock.codes.set(code.keyboardPwdId, code);
    return ok({ keyboardPwd: pin, keyboardPwdId: code.keyboardPwdId });
  }

  /** The gateways, as /v3/gateway/list answers them (a G2 on Wi-Fi each). */
  function gatewayViews() {
    const byId = new Map<number, Lock[]>();
    for (const lock of locks.values()) {
      const id = gatewayIdOf(lock);
      if (id !== null) byId.set(id, [...(byId.get(id) ?? []), lock]);
    }
    return [...byId.entries()]
      .sort(([a], [b]) => a - b)
      .map(([gatewayId, served]) => ({
        gatewayId,
        gatewayMac: createHash('sha1')
          .update(`gateway:${gatewayId}`)
          .digest('hex')
          .slice(0, 12)
          .toUpperCase()
          .match(/../g)!
          .join(':'),
        gatewayName: `G2_${gatewayId}`,
        gatewayVersion: 2,
        networkName: 'UnlockOS-Sim',
        networkMac: '00:00:00:00:00:00',
        lockNum: served.length,
        isOnline: gatewayOnline(gatewayId) ? 1 : 0,
        served,
      }));
  }

  /** The locks a gateway reaches now (TTLock keeps them for 30 minutes; the simulator drops them at once). */
  function gatewayLocks(params: URLSearchParams): Answer {
    const gatewayId = intParam(params, 'gatewayId');
    if (gatewayId === undefined || gatewayId <= 0) return fail(-3);
    const gateway = gatewayViews().find((g) => g.gatewayId === gatewayId);
    if (!gateway) return fail(-3);
    const reached =
      gateway.isOnline === 1 ? gateway.served.filter((l) => lockFaults(l.lockId).offline !== 'gateway') : [];
    return ok({
      list: reached.map((l) => ({
        lockId: l.lockId,
        lockMac: l.lockMac,
        lockName: l.lockName,
        lockAlias: l.lockAlias,
        rssi: -62,
        updateDate: now(),
      })),
    });
  }

  const ENDPOINTS = new Set([
    '/v3/gateway/list',
    '/v3/gateway/listLock',
    '/v3/lock/list',
    '/v3/lock/detail',
    '/v3/lock/listKeyboardPwd',
    '/v3/keyboardPwd/add',
    '/v3/keyboardPwd/delete',
    '/v3/keyboardPwd/change',
    '/v3/keyboardPwd/get',
    '/v3/lock/unlock',
    '/v3/lockRecord/list',
  ]);

  function api(endpoint: string, params: URLSearchParams): Answer {
    if (endpoint === '/v3/gateway/list')
      return page(
        gatewayViews().map(({ served: _locks, ...g }) => g),
        params,
        200,
      );
    if (endpoint === '/v3/gateway/listLock') return gatewayLocks(params);
    if (endpoint === '/v3/lock/list') {
      const alias = params.get('lockAlias');
      const all = [...locks.values()].filter((lock) => !alias || lock.lockAlias.includes(alias));
      return page(all.map(lockView), params, 1000);
    }
    const handlers: Record<string, (lock: Lock) => Answer> = {
      '/v3/lock/detail': (lock) =>
        ok({
          ...lockView(lock),
          keyboardPwdVersion: 4,
          timezoneRawOffset: 0,
          modelNum: 'SN139-ZLQ_PV53',
          hardwareRevision: '1.3',
          firmwareRevision: '2.0.2',
          autoLockTime: -1,
          lockSound: 1,
          soundVolume: 3,
          privacyLock: 2,
          tamperAlert: 2,
          resetButton: 1,
          openDirection: 0,
          passageMode: 2,
        }),
      '/v3/lock/listKeyboardPwd': (lock) => {
        const orderBy = intParam(params, 'orderBy');
        if (orderBy !== 0 && orderBy !== 1 && orderBy !== 2) return fail(-3);
        const search = params.get('searchStr');
        const codes = [...lock.codes.values()].filter(
          (c) => !search || c.keyboardPwdName.includes(search) || c.keyboardPwd === search,
        );
        if (orderBy === 1) codes.sort((a, b) => b.sendDate - a.sendDate || b.keyboardPwdId - a.keyboardPwdId);
        else codes.sort((a, b) => a.keyboardPwdName.localeCompare(b.keyboardPwdName) * (orderBy === 0 ? 1 : -1));
        return page(
          codes.map((c) => passcodeView(lock, c)),
          params,
          200,
        );
      },
      '/v3/keyboardPwd/add': (lock) => addPasscode(params, lock),
      '/v3/keyboardPwd/delete': (lock) => deletePasscode(params, lock),
      '/v3/keyboardPwd/change': (lock) => changePasscode(params, lock),
      '/v3/keyboardPwd/get': (lock) => getPasscode(params, lock),
      '/v3/lock/unlock': (lock) => unlockRemotely(params, lock),
      '/v3/lockRecord/list': (lock) => listRecords(params, lock),
    };
    const lock = lockOf(params);
    return 'lockId' in lock ? handlers[endpoint]!(lock) : lock;
  }

  /** An injected failure for this call, if any: the next-N queue, the lock's own, then the random rate. */
  function injectedFault(endpoint: string, lockId: number | undefined): Answer | null {
    const next = faults.next;
    if (
      next &&
      next.count > 0 &&
      (next.errcode !== undefined || next.httpStatus !== undefined || next.malformed !== undefined) &&
      (!next.endpoint || next.endpoint === endpoint) &&
      (next.lockId === undefined || String(next.lockId) === String(lockId))
    ) {
      next.count -= 1;
      if (next.count === 0) faults.next = null;
      if (next.malformed) return malformedAnswer(next.malformed);
      if (next.httpStatus && next.httpStatus !== 200) return httpError(next.httpStatus);
      return fail(next.errcode ?? -3003);
    }
    const own = lockFaults(lockId);
    if (own.httpStatus) return httpError(own.httpStatus);
    if (own.malformed) return malformedAnswer(own.malformed);
    if (faults.errorRate > 0 && random() < faults.errorRate) {
      if (faults.errorKind === 'busy') return fail(-3003);
      if (faults.errorKind === 'offline') return fail(-3036);
      if (faults.errorKind === 'malformed') return malformedAnswer('html');
      return httpError(500);
    }
    return null;
  }

  /** The next-N queue's slow successes (`next` with only `latencyMs`), consumed as a call arrives. */
  function slowNext(endpoint: string): number {
    const next = faults.next;
    if (
      !next ||
      next.count <= 0 ||
      next.errcode !== undefined ||
      next.httpStatus !== undefined ||
      next.malformed !== undefined ||
      (next.endpoint && next.endpoint !== endpoint)
    )
      return 0;
    next.count -= 1;
    if (next.count === 0) faults.next = null;
    return next.latencyMs ?? 0;
  }

  /** The name of the passcode a call names by id, read before the call changes it. */
  function nameOf(params: URLSearchParams, lockId: number | undefined): string | undefined {
    const id = intParam(params, 'keyboardPwdId');
    return id === undefined || lockId === undefined ? undefined : locks.get(lockId)?.codes.get(id)?.keyboardPwdName;
  }

  function record(
    endpoint: string,
    params: URLSearchParams,
    answer: Answer,
    lockId: number | undefined,
    nameBefore: string | undefined,
  ): void {
    const body = 'body' in answer ? answer.body : null;
    const errcode = body
      ? typeof body.errcode === 'number'
        ? body.errcode
        : 0
      : answer.status === 200 && 'errcode' in answer
        ? answer.errcode
        : null;
    const answeredId = typeof body?.keyboardPwdId === 'number' ? body.keyboardPwdId : undefined;
    const codeId = answeredId ?? intParam(params, 'keyboardPwdId');
    const isToken = endpoint === '/oauth2/token';
    const grant = params.get('grant_type') ?? 'password';
    const password = params.get('password');
    calls.push({
      seq: ++callSeq,
      at: new Date().toISOString(),
      endpoint,
      grantType: isToken ? (grant === 'refresh_token' ? 'refresh_token' : 'password') : null,
      passwordForm:
        isToken && grant !== 'refresh_token'
          ? password === null
            ? 'absent'
            : /^[0-9a-f]{32}$/.test(password)
              ? 'md5'
              : 'other'
          : null,
      lockId: params.get('lockId'),
      clientRef: clientRefOf(nameBefore ?? params.get('keyboardPwdName')),
      keyboardPwdId: codeId === undefined ? null : String(codeId),
      pinHash: pinHash(
        params.get('keyboardPwd') ?? params.get('newKeyboardPwd') ?? (body?.keyboardPwd as string | undefined),
      ),
      outcome: answer.status === 200 && errcode === 0 && !(answer as { raw?: string }).raw ? 'ok' : 'error',
      errcode,
      httpStatus: answer.status,
    });
    // A long run (npm start, a benchmark reading every lock each minute) keeps the latest calls only.
    if (calls.length > MAX_CALLS_KEPT) calls.splice(0, calls.length - MAX_CALLS_KEPT);
  }

  function control(pathname: string, body: Record<string, unknown>): Answer {
    const door = /^\/_control\/locks\/(\d{1,10})\/(open|lock|upload)$/.exec(pathname);
    if (door) {
      const lockId = Number(door[1]);
      const lock =
        locks.get(lockId) ?? (autoCreate && lockId > 0 && lockId <= MAX_LOCK_ID ? addLock({ lockId }) : null);
      if (!lock) return { status: 404, body: { error: 'no such lock' } };
      if (door[2] !== 'upload') return doorEvent(lock, door[2] as 'open' | 'lock', body);
      const kept = lock.records.filter((r) => r.serverDate === null);
      for (const record of kept) record.serverDate = now();
      return ok({ uploaded: kept.length });
    }
    switch (pathname) {
      case '/_control/calls':
        return ok({ calls });
      case '/_control/codes':
        return ok({
          locks: Object.fromEntries(
            [...locks.values()].map((lock) => [
              String(lock.lockId),
              [...lock.codes.values()].map((c): SimulatorCode => ({
                keyboardPwdId: String(c.keyboardPwdId),
                keyboardPwdName: c.keyboardPwdName,
                clientRef: clientRefOf(c.keyboardPwdName),
                keyboardPwdType: c.keyboardPwdType,
                isCustom: c.isCustom,
                startDate: c.startDate,
                endDate: c.endDate,
                pinHash: pinHash(c.keyboardPwd),
              })),
            ]),
          ),
        });
      case '/_control/records':
        return ok({ records: [...locks.values()].flatMap((lock) => lock.records.map(recordView)) });
      case '/_control/locks':
        return ok({
          locks: [...locks.values()].map((lock) => {
            const { lockData: _opaque, ...view } = lockView(lock);
            return { ...view, gatewayId: gatewayIdOf(lock) };
          }),
        });
      case '/_control/reset':
        faults = { ...DEFAULT_FAULTS };
        calls = [];
        callSeq = 0;
        accessTokens.clear();
        refreshTokens.clear();
        resetLocks();
        return ok({ ok: true });
      case '/_control/faults':
        faults = { ...DEFAULT_FAULTS, ...(body as Partial<Faults>) };
        faults.locks ??= {};
        faults.gateways ??= {};
        return ok({ faults });
      case '/_control/expire-tokens':
        for (const entry of accessTokens.values()) entry.expiresAt = now() - 1;
        if (body.refresh === true) refreshTokens.clear();
        return ok({ ok: true });
      default:
        return { status: 404, body: { error: 'no such control endpoint' } };
    }
  }

  return http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (answer: Answer) => {
        if ('raw' in answer) {
          response.writeHead(answer.status, { 'content-type': answer.contentType });
          return response.end(answer.raw);
        }
        response.writeHead(answer.status, { 'content-type': 'application/json;charset=UTF-8' });
        response.end(JSON.stringify(answer.body));
      };
      const url = new URL(request.url ?? '/', 'http://simulator');
      const raw = Buffer.concat(chunks).toString('utf8');

      if (url.pathname === '/health') return send(ok({ ok: true }));
      if (url.pathname.startsWith('/_control/')) {
        let body: Record<string, unknown> = {};
        try {
          body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        } catch {
          return send({ status: 400, body: { error: 'malformed JSON' } });
        }
        return send(control(url.pathname, body));
      }

      if (request.method !== 'POST' && request.method !== 'GET') return send(httpError(405));
      // TTLock reads form fields, from the query string or a form-encoded body.
      const params = new URLSearchParams(url.search);
      if (
        request.method === 'POST' &&
        /application\/x-www-form-urlencoded/i.test(request.headers['content-type'] ?? '')
      )
        for (const [name, value] of new URLSearchParams(raw)) params.append(name, value);
      const endpoint = url.pathname;
      const isToken = endpoint === '/oauth2/token';
      const lockIdParam = intParam(params, 'lockId');
      const delay = (isToken ? 0 : slowNext(endpoint) + (lockFaults(lockIdParam).latencyMs ?? 0)) + faults.latencyMs;
      const respond = () => {
        const nameBefore = nameOf(params, lockIdParam);
        const answer = isToken
          ? token(params)
          : !ENDPOINTS.has(endpoint)
            ? httpError(404)
            : (injectedFault(endpoint, lockIdParam) ?? authorize(params) ?? api(endpoint, params));
        record(endpoint, params, answer, lockIdParam, nameBefore);
        send(answer);
      };
      if (delay > 0) setTimeout(respond, delay);
      else respond();
    });
  });
}

/** Starts a simulator on a free loopback port (tests), with the one client and user given. */
export async function startSimulator(options: {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  locks?: readonly SimulatorLockInput[];
  autoCreateLocks?: boolean;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createSimulator({
    clients: { [options.clientId]: options.clientSecret },
    users: { [options.username]: options.password },
    locks: options.locks,
    autoCreateLocks: options.autoCreateLocks,
  });
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
