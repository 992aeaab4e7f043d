import { createHash } from 'node:crypto';
import { logger } from '../log/logger';
import {
  asFailure,
  classifyNetworkError,
  classifyResponse,
  MALFORMED,
  UNREACHABLE,
  SUCCESS_SHAPES,
  type Body,
  type Classified,
  type SuccessShape,
} from './classify';
import {
  clientRefOf,
  codeName,
  type CallContext,
  type CodeState,
  type LockProvider,
  type LockResult,
  type ProgramCodeInput,
  type ProviderCode,
  type ProviderDevice,
  type ProviderDoorRecord,
} from './provider';
import { TokenCache } from './token-cache';

export type TtlockProviderOptions = {
  /** `simulator` when this talks to tooling/simulator/lock-simulator.ts, which speaks the same protocol. */
  name?: 'ttlock' | 'simulator';
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The TTLock app account that owns the locks (not the developer account). */
  username: string;
  password: string;
  timeoutMs?: number;
  /** How requests go out: the global fetch, or lib/http/outbound-fetch.ts for a tenant-given endpoint. */
  fetch?: TtlockFetch;
  tokenCache?: TokenCache;
  /**
   * Whose token this client holds (`tenant:<id>`, or `install` for the install's own account): a
   * cached token is never shared between scopes, whatever the credentials.
   */
  cacheScope?: string;
};

export type TtlockFetch = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body: URLSearchParams;
    signal: AbortSignal;
    redirect: 'manual';
  },
) => Promise<Response>;

const sharedCache = new TokenCache();
const HOUR_MS = 3_600_000;
const LOCK_PAGE_SIZE = 100;
const GATEWAY_PAGE_SIZE = 200; // the most /v3/gateway/list gives at once
const CODE_PAGE_SIZE = 200; // the most /v3/lock/listKeyboardPwd gives at once
const RECORD_PAGE_SIZE = 200; // the most /v3/lockRecord/list gives at once
const MAX_PAGES = 100;
const MAX_LOCK_ID = 2_147_483_647;

type Fields = Record<string, string | number>;

const md5 = (value: string) => createHash('md5').update(value, 'utf8').digest('hex');

/** TTLock ids are positive Ints; anything else never names a lock or passcode there. */
function idOf(value: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_LOCK_ID ? id : null;
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** A TTLock date (ms): null for "none" (0, absent), undefined for something that is not a date. */
function dateOf(value: unknown): Date | null | undefined {
  if (value === undefined || value === null || value === 0) return null;
  return isId(value) ? new Date(value) : undefined;
}

/**
 * A passcode's `status` (reported for locks that confirm asynchronously, e.g. NB-IoT: 1 normal,
 * 2 invalid or expired, 3 pending, 4 adding, 5 add failed, 6 modifying, 7 modify failed,
 * 8 deleting, 9 delete failed) as our state. Absent: the passcode was set synchronously.
 */
const STATUS: Record<number, { state: CodeState; error: string | null }> = {
  1: { state: 'set', error: null },
  2: { state: 'set', error: 'invalid_or_expired' },
  3: { state: 'setting', error: null },
  4: { state: 'setting', error: null },
  5: { state: 'failed', error: 'failed_to_set_on_device' },
  6: { state: 'setting', error: null },
  7: { state: 'set', error: 'failed_to_modify_on_device' },
  8: { state: 'removing', error: null },
  9: { state: 'set', error: 'failed_to_remove_from_device' },
};

/** One entry of `/v3/lock/listKeyboardPwd`, or null when it is not recognisably a passcode. */
function toProviderCode(entry: unknown): ProviderCode | null {
  if (!entry || typeof entry !== 'object') return null;
  const e = entry as Body;
  if (!isId(e.keyboardPwdId)) return null;
  if (e.keyboardPwdName !== undefined && e.keyboardPwdName !== null && typeof e.keyboardPwdName !== 'string')
    return null;
  const validFrom = dateOf(e.startDate);
  const expiresAt = dateOf(e.endDate);
  if (validFrom === undefined || expiresAt === undefined) return null;
  const status = e.status === undefined || e.status === null ? { state: 'set' as const, error: null } : null;
  const reported = typeof e.status === 'number' ? STATUS[e.status] : undefined;
  const { state, error } = status ?? reported ?? { state: null, error: null };
  if (!state) return null;
  return {
    codeId: String(e.keyboardPwdId),
    clientRef: clientRefOf(e.keyboardPwdName as string | null | undefined),
    state,
    error,
    validFrom,
    expiresAt,
  };
}

type DoorRecordMeaning = Pick<ProviderDoorRecord, 'kind' | 'method'> & { remote?: true };

/**
 * TTLock's cloud record types (`recordType` of `/v3/lockRecord/list`) that open or lock the door, in our words:
 * a passcode is a code, TTLock's app and its gateway (a remote unlock) the app, a mechanical key or the lock's own
 * button by hand; cards, fingerprints, fobs, faces and automatic ones are not said. Every other type (door sensor,
 * tamper alarm, settings) is neither an opening nor a locking.
 */
const RECORD_TYPES: ReadonlyMap<number, DoorRecordMeaning> = new Map<number, DoorRecordMeaning>([
  [1, { kind: 'unlocked', method: 'app' }],
  [4, { kind: 'unlocked', method: 'code' }],
  [7, { kind: 'unlocked', method: 'unknown' }],
  [8, { kind: 'unlocked', method: 'unknown' }],
  [9, { kind: 'unlocked', method: 'unknown' }],
  [10, { kind: 'unlocked', method: 'manual' }],
  [12, { kind: 'unlocked', method: 'app', remote: true }],
  [32, { kind: 'unlocked', method: 'manual' }],
  [46, { kind: 'unlocked', method: 'manual' }],
  [49, { kind: 'unlocked', method: 'unknown' }],
  [55, { kind: 'unlocked', method: 'unknown' }],
  [57, { kind: 'unlocked', method: 'unknown' }],
  [63, { kind: 'unlocked', method: 'unknown' }],
  [67, { kind: 'unlocked', method: 'unknown' }],
  [11, { kind: 'locked', method: 'app' }],
  [33, { kind: 'locked', method: 'unknown' }],
  [34, { kind: 'locked', method: 'code' }],
  [35, { kind: 'locked', method: 'unknown' }],
  [36, { kind: 'locked', method: 'manual' }],
  [45, { kind: 'locked', method: 'unknown' }],
  [47, { kind: 'locked', method: 'manual' }],
  [61, { kind: 'locked', method: 'unknown' }],
  [69, { kind: 'locked', method: 'unknown' }],
]);

/**
 * One entry of `/v3/lockRecord/list`, or null when it is not recognisably a record (an id, a whole-number type, a
 * success flag and the lock's time are what a record needs). A failed try (success 0) is kept, not an opening. A
 * gateway unlock is our own remote unlock unless TTLock names another account than ours (`username`) as its author.
 */
function toDoorRecord(entry: unknown, username: string): ProviderDoorRecord | null {
  if (!entry || typeof entry !== 'object') return null;
  const e = entry as Body;
  if (!isId(e.recordId) || !Number.isSafeInteger(e.recordType) || (e.success !== 0 && e.success !== 1)) return null;
  if (!isId(e.lockDate)) return null;
  const uploadedAt = dateOf(e.serverDate);
  if (uploadedAt === undefined) return null;
  if (e.keyboardPwd !== undefined && e.keyboardPwd !== null && typeof e.keyboardPwd !== 'string') return null;
  const meaning = RECORD_TYPES.get(e.recordType as number);
  const pin = meaning?.method === 'code' && typeof e.keyboardPwd === 'string' && e.keyboardPwd ? e.keyboardPwd : null;
  return {
    eventId: String(e.recordId),
    kind: e.success === 1 ? (meaning?.kind ?? null) : null,
    method: meaning?.method ?? 'unknown',
    success: e.success === 1,
    occurredAt: new Date(e.lockDate),
    uploadedAt,
    pin,
    // A gateway unlock someone else's TTLock account made (its app) is theirs, not the desk's.
    remote: meaning?.remote === true && (!e.username || e.username === username),
  };
}

/** One entry of `/v3/lock/list`, or null when it is not recognisably a lock. */
function toProviderDevice(entry: unknown): ProviderDevice | null {
  if (!entry || typeof entry !== 'object') return null;
  const e = entry as Body;
  if (!isId(e.lockId)) return null;
  const battery = e.electricQuantity;
  const name = [e.lockAlias, e.lockName].find((n): n is string => typeof n === 'string' && n.length > 0);
  return {
    deviceId: String(e.lockId),
    name: name ?? String(e.lockId),
    // TTLock's word on the gateway (it keeps a gateway's last report for 30 minutes): 1 connected, 0 none.
    online: e.hasGateway === 1 ? true : e.hasGateway === 0 ? false : null,
    batteryLevel:
      typeof battery === 'number' && Number.isInteger(battery) && battery >= 0 && battery <= 100 ? battery : null,
    canProgramOnline: e.hasGateway === 1,
    // Every lock on TTLock's V4 passcode scheme takes algorithmic passcodes from /v3/keyboardPwd/get.
    canProgramOffline: true,
    supportsBackupCodes: false,
  };
}

/**
 * A lock's online state from its gateways: online only when an online gateway reaches it now;
 * unknown (null) when the gateways could not be read.
 */
function withGatewayState(device: ProviderDevice, reached: Set<string> | null): ProviderDevice {
  if (!device.canProgramOnline) return { ...device, online: false, offlineReason: 'no_gateway' };
  if (!reached) return { ...device, online: null, offlineReason: null };
  const online = reached.has(device.deviceId);
  return { ...device, online, offlineReason: online ? null : 'gateway_offline' };
}

/**
 * The lock provider on TTLock's open platform (cloud API v3), or on the simulator that speaks it.
 * Every call returns a result, never throws for TTLock's answer (DESIGN.md, Keys 5): HTTP 5xx,
 * timeouts and the offline/busy errcodes are retryable; an HTTP 200 carrying `errcode` ≠ 0 is
 * classified by that code (lib/locks/classify.ts); anything not recognisably a success is a
 * failure. A refused token gets one fresh token (refresh token first, else the password) and one
 * more try; wrong credentials are never retried. Tokens are cached `min(expires_in − 60 s, 95 min)`.
 * Logs carry provider, endpoint, outcome, code/errcode and correlation id — never bodies, PINs,
 * tokens or the password.
 */
export function createTtlockProvider(options: TtlockProviderOptions): LockProvider {
  const name = options.name ?? 'ttlock';
  const doFetch = options.fetch ?? fetch;
  const cache = options.tokenCache ?? sharedCache;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // TTLock takes the account password as its lowercase hex MD5; the clear one never leaves this process.
  const passwordHash = md5(options.password);
  // Everything that earns a token, and whose it is: a token is reused only by the same scope with
  // the same secret and password, never by someone who typed only the client id and username.
  const cacheKey = createHash('sha256')
    .update(
      JSON.stringify([
        options.cacheScope ?? '',
        options.baseUrl,
        options.clientId,
        options.username,
        options.clientSecret,
        passwordHash,
      ]),
    )
    .digest('hex');
  let signingIn: Promise<LockResult<string>> | null = null;

  function log(endpoint: string, correlationId: string, result: Classified): void {
    if (result.ok) {
      logger.debug({ provider: name, endpoint, outcome: 'ok', correlationId }, 'lock provider call');
      return;
    }
    logger.warn(
      {
        provider: name,
        endpoint,
        outcome: 'error',
        code: result.code,
        errcode: result.errcode,
        retryable: result.retryable,
        correlationId,
      },
      'lock provider call failed',
    );
  }

  /** One form-encoded POST, classified (TTLock documents every endpoint as such a POST). */
  async function exchange(
    endpoint: string,
    fields: Fields,
    isSuccess: SuccessShape,
    correlationId: string,
  ): Promise<Classified> {
    let result: Classified;
    try {
      const response = await doFetch(`${options.baseUrl}${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-correlation-id': correlationId },
        body: new URLSearchParams(Object.entries(fields).map(([field, value]) => [field, String(value)])),
        signal: AbortSignal.timeout(timeoutMs),
        // A redirect is never followed (it would carry the form, credentials included, elsewhere).
        redirect: 'manual',
      });
      result =
        response.status === 0 || (response.status >= 300 && response.status < 400)
          ? UNREACHABLE
          : classifyResponse(response.status, parseJson(await response.text()), isSuccess);
    } catch (error) {
      result = classifyNetworkError(error);
    }
    log(endpoint, correlationId, result);
    return result;
  }

  function remember(body: Body): LockResult<string> {
    const token = body.access_token as string;
    cache.set(cacheKey, token, body.expires_in);
    cache.setRefreshToken(cacheKey, typeof body.refresh_token === 'string' ? body.refresh_token : null);
    return { ok: true, data: token };
  }

  /**
   * A new access token: from the refresh token when one is remembered and `refresh` allows (the
   * password then travels less often), else — or when TTLock refuses the refresh token — from the
   * account's username and password.
   */
  async function signIn(correlationId: string, refresh: boolean): Promise<LockResult<string>> {
    const refreshToken = refresh ? cache.getRefreshToken(cacheKey) : null;
    const client = { clientId: options.clientId, clientSecret: options.clientSecret };
    if (refreshToken) {
      const refreshed = await exchange(
        '/oauth2/token',
        { ...client, grant_type: 'refresh_token', refresh_token: refreshToken },
        SUCCESS_SHAPES.token,
        correlationId,
      );
      if (refreshed.ok) return remember(refreshed.data);
      if (!refreshed.auth) return asFailure(refreshed); // TTLock did not answer: try later, not with the password
      cache.setRefreshToken(cacheKey, null);
    }
    const signedIn = await exchange(
      '/oauth2/token',
      { ...client, username: options.username, password: passwordHash },
      SUCCESS_SHAPES.token,
      correlationId,
    );
    return signedIn.ok ? remember(signedIn.data) : asFailure(signedIn);
  }

  /** The cached access token, else one new token for all the calls waiting on it. */
  function accessToken(correlationId: string): Promise<LockResult<string>> {
    const cached = cache.get(cacheKey);
    if (cached) return Promise.resolve({ ok: true, data: cached });
    signingIn ??= signIn(correlationId, true).finally(() => {
      signingIn = null;
    });
    return signingIn;
  }

  /** An authorised API call: a refused token gets one fresh token and one more try, then the answer stands. */
  async function call(
    endpoint: string,
    fields: Fields,
    isSuccess: SuccessShape,
    ctx: CallContext,
  ): Promise<Classified> {
    const attempt = async (token: string) =>
      exchange(
        endpoint,
        { clientId: options.clientId, accessToken: token, date: Date.now(), ...fields },
        isSuccess,
        ctx.correlationId,
      );
    const first = await accessToken(ctx.correlationId);
    if (!first.ok) return first;
    const result = await attempt(first.data);
    if (result.ok || result.auth !== 'token') return result;
    if (cache.get(cacheKey) === first.data) cache.invalidate(cacheKey);
    const fresh = await accessToken(ctx.correlationId);
    if (!fresh.ok) return fresh;
    const retried = await attempt(fresh.data);
    if (!retried.ok && retried.auth === 'token' && cache.get(cacheKey) === fresh.data) cache.invalidate(cacheKey);
    return retried;
  }

  /** Every page of a paged list: a failure or a malformed page anywhere fails the whole listing. */
  async function allPages(
    endpoint: string,
    fields: Fields,
    pageSize: number,
    ctx: CallContext,
  ): Promise<LockResult<unknown[]>> {
    const items: unknown[] = [];
    for (let pageNo = 1; pageNo <= MAX_PAGES; pageNo++) {
      const result = await call(endpoint, { ...fields, pageNo, pageSize }, SUCCESS_SHAPES.page, ctx);
      if (!result.ok) return asFailure(result);
      items.push(...(result.data.list as unknown[]));
      if (pageNo >= (result.data.pages as number)) return { ok: true, data: items };
    }
    return { ok: false, code: 'too_many_pages', retryable: false };
  }

  /**
   * The lock ids an online gateway reaches now (`/v3/gateway/list`, then `/v3/gateway/listLock` of each
   * online gateway), or null when TTLock did not say: a lock's `hasGateway` alone outlives its
   * gateway by half an hour, so it never makes a lock "online" by itself.
   */
  async function locksReachedByGateways(ctx: CallContext): Promise<Set<string> | null> {
    const gateways = await allPages('/v3/gateway/list', { orderBy: 1 }, GATEWAY_PAGE_SIZE, ctx);
    if (!gateways.ok) return null;
    const reached = new Set<string>();
    for (const gateway of gateways.data as Body[]) {
      if (!isId(gateway?.gatewayId) || (gateway.isOnline !== 0 && gateway.isOnline !== 1)) return null;
      if (gateway.isOnline !== 1) continue;
      const locks = await call('/v3/gateway/listLock', { gatewayId: gateway.gatewayId }, SUCCESS_SHAPES.list, ctx);
      if (!locks.ok) return null;
      for (const lock of locks.data.list as Body[]) {
        if (!isId(lock?.lockId)) return null;
        reached.add(String(lock.lockId));
      }
    }
    return reached;
  }

  /** A failure decided here, before any call: logged like one TTLock gave. */
  function refuse(endpoint: string, ctx: CallContext, code: string): LockResult<never> {
    log(endpoint, ctx.correlationId, { ok: false, code, retryable: false });
    return { ok: false, code, retryable: false };
  }

  async function listCodes(input: CallContext & { deviceId: string }): Promise<LockResult<ProviderCode[]>> {
    const lockId = idOf(input.deviceId);
    if (!lockId) return refuse('/v3/lock/listKeyboardPwd', input, 'invalid_device_id');
    const listed = await allPages('/v3/lock/listKeyboardPwd', { lockId, orderBy: 1 }, CODE_PAGE_SIZE, input);
    if (!listed.ok) return listed;
    const codes = listed.data.map(toProviderCode);
    // One passcode we cannot read makes the whole list unreliable: "not there" is never a guess.
    if (codes.some((code) => code === null)) return asFailure(MALFORMED);
    return { ok: true, data: codes as ProviderCode[] };
  }

  /**
   * After -3007 (that PIN is on the lock already): our own code when it is the one holding the PIN —
   * an earlier call whose answer was lost set it — else `duplicate_code_on_device`. A listing that
   * fails is that failure: "someone else's" is never a guess.
   */
  async function ownCodeWithPin(
    lockId: number,
    input: ProgramCodeInput,
  ): Promise<LockResult<{ codeId: string; state: CodeState }>> {
    const listed = await allPages(
      '/v3/lock/listKeyboardPwd',
      { lockId, orderBy: 1, searchStr: input.pin },
      CODE_PAGE_SIZE,
      input,
    );
    if (!listed.ok) return listed;
    const holders = listed.data.filter((entry) => (entry as Body | null)?.keyboardPwd === input.pin) as Body[];
    const ours = holders.filter((entry) => clientRefOf(entry.keyboardPwdName as string) === input.clientRef);
    if (ours.length === 1 && holders.length === 1 && isId(ours[0]!.keyboardPwdId))
      return { ok: true, data: { codeId: String(ours[0]!.keyboardPwdId), state: 'set' } };
    return { ok: false, code: 'duplicate_code_on_device', retryable: false };
  }

  return {
    name,

    async listDevices(ctx) {
      const listed = await allPages('/v3/lock/list', {}, LOCK_PAGE_SIZE, ctx);
      if (!listed.ok) return listed;
      const devices = listed.data.map(toProviderDevice);
      if (devices.some((device) => device === null)) return asFailure(MALFORMED);
      const reached = await locksReachedByGateways(ctx);
      return { ok: true, data: (devices as ProviderDevice[]).map((device) => withGatewayState(device, reached)) };
    },

    async programCode(input) {
      const lockId = idOf(input.deviceId);
      if (!lockId) return refuse('/v3/keyboardPwd/add', input, 'invalid_device_id');
      // addType 2: through the gateway, which writes the passcode into the lock before TTLock answers.
      const result = await call(
        '/v3/keyboardPwd/add',
        {
          lockId,
          keyboardPwd: input.pin,
          keyboardPwdName: codeName(input.clientRef),
          keyboardPwdType: 3,
          startDate: input.validFrom.getTime(),
          endDate: input.expiresAt.getTime(),
          addType: 2,
        },
        SUCCESS_SHAPES.add,
        input,
      );
      if (result.ok) return { ok: true, data: { codeId: String(result.data.keyboardPwdId), state: 'set' } };
      if (result.errcode === -3007) return ownCodeWithPin(lockId, input);
      return asFailure(result);
    },

    async removeCode(input) {
      const lockId = idOf(input.deviceId);
      if (!lockId) return refuse('/v3/keyboardPwd/delete', input, 'invalid_device_id');
      const keyboardPwdId = idOf(input.codeId);
      if (!keyboardPwdId) return refuse('/v3/keyboardPwd/delete', input, 'invalid_code_id');
      const result = await call(
        '/v3/keyboardPwd/delete',
        { lockId, keyboardPwdId, deleteType: 2 },
        SUCCESS_SHAPES.done,
        input,
      );
      if (result.ok) return { ok: true, data: { state: 'absent' } };
      // -2009: TTLock says that passcode does not exist — gone is what a removal wants.
      if (result.errcode === -2009) return { ok: true, data: { state: 'absent' } };
      return asFailure(result);
    },

    async getCode(input) {
      if (!idOf(input.codeId)) return refuse('/v3/lock/listKeyboardPwd', input, 'invalid_code_id');
      const listed = await listCodes(input);
      if (!listed.ok) return listed;
      return { ok: true, data: listed.data.find((code) => code.codeId === input.codeId) ?? null };
    },

    listCodes,

    async checkHealth(ctx) {
      const signedIn = await signIn(ctx.correlationId, false);
      return signedIn.ok ? { ok: true, data: null } : signedIn;
    },

    async updateCodeWindow(input) {
      const lockId = idOf(input.deviceId);
      if (!lockId) return refuse('/v3/keyboardPwd/change', input, 'invalid_device_id');
      const keyboardPwdId = idOf(input.codeId);
      if (!keyboardPwdId) return refuse('/v3/keyboardPwd/change', input, 'invalid_code_id');
      // changeType 2: through the gateway, which writes the new period into the lock before TTLock answers.
      const result = await call(
        '/v3/keyboardPwd/change',
        {
          lockId,
          keyboardPwdId,
          startDate: input.validFrom.getTime(),
          endDate: input.expiresAt.getTime(),
          changeType: 2,
        },
        SUCCESS_SHAPES.done,
        input,
      );
      if (result.ok) return { ok: true, data: { state: 'set' } };
      // -2009: the lock no longer has that passcode; nothing to change in place.
      if (result.errcode === -2009) return { ok: false, code: 'code_not_found', retryable: false };
      return asFailure(result);
    },

    async unlockDoor(input) {
      const lockId = idOf(input.deviceId);
      if (!lockId) return refuse('/v3/lock/unlock', input, 'invalid_device_id');
      // Through the lock's gateway: TTLock answers once the lock opened (errcode 0), never later.
      const result = await call('/v3/lock/unlock', { lockId }, SUCCESS_SHAPES.done, input);
      if (result.ok) return { ok: true, data: { actionId: null, status: 'done' } };
      // No gateway paired with the lock, or a model that cannot: this door cannot be opened remotely.
      if (result.errcode === -2012 || result.errcode === -4043)
        return { ok: false, code: 'not_supported', retryable: false };
      // No whole answer (a timeout, a 5xx, a body that is not TTLock's): the gateway may have opened the door, so
      // only the door's record can say. Pending, never "failed" on a guess.
      if (result.errcode === undefined && /^(timeout|malformed_response|http_5\d\d)$/.test(result.code))
        return { ok: true, data: { actionId: null, status: 'pending' } };
      return asFailure(result);
    },

    async listDoorRecords(input) {
      const lockId = idOf(input.deviceId);
      if (!lockId) return refuse('/v3/lockRecord/list', input, 'invalid_device_id');
      const listed = await allPages(
        '/v3/lockRecord/list',
        { lockId, startDate: Math.max(0, input.from.getTime()) },
        RECORD_PAGE_SIZE,
        input,
      );
      if (!listed.ok) return listed;
      const records = listed.data.map((entry) => toDoorRecord(entry, options.username));
      // One record we cannot read makes the read unreliable: the caller keeps its cursor and reads again.
      if (records.some((record) => record === null)) return asFailure(MALFORMED);
      // A record seen twice (a page shifted by a record uploaded meanwhile) is one record.
      const byId = new Map((records as ProviderDoorRecord[]).map((record) => [record.eventId, record]));
      return { ok: true, data: [...byId.values()] };
    },

    async offlineCode(input) {
      const lockId = idOf(input.deviceId);
      if (!lockId) return refuse('/v3/keyboardPwd/get', input, 'invalid_device_id');
      // TTLock keeps only whole hours of an algorithmic passcode's period. Rounding inwards keeps it
      // inside the window asked for: a PIN that works before its stay could open an occupied room.
      const startDate = Math.ceil(input.validFrom.getTime() / HOUR_MS) * HOUR_MS;
      const endDate = Math.floor(input.expiresAt.getTime() / HOUR_MS) * HOUR_MS;
      if (endDate <= startDate) return refuse('/v3/keyboardPwd/get', input, 'window_too_short');
      // keyboardPwdType 3: a period passcode (it must be used once within 24 hours of its start).
      const result = await call(
        '/v3/keyboardPwd/get',
        {
          lockId,
          keyboardPwdVersion: 4,
          keyboardPwdType: 3,
          keyboardPwdName: codeName(input.clientRef),
          startDate,
          endDate,
        },
        SUCCESS_SHAPES.passcode,
        input,
      );
      if (!result.ok) return asFailure(result);
      return {
        ok: true,
        data: { codeId: String(result.data.keyboardPwdId), pin: result.data.keyboardPwd as string },
      };
    },
  };
}
