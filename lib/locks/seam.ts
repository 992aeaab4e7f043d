import type { SeamHttp, SeamPageCursor } from '@seamapi/http/connect';
import { z } from 'zod';
import { logger } from '../log/logger';
import {
  clientRefOf,
  codeName,
  type CallContext,
  type CodeState,
  type DeviceOfflineReason,
  type LockProvider,
  type LockResult,
  type ProviderCode,
  type ProviderDevice,
} from './provider';

/**
 * The Seam adapter (PROVIDERS.md, "Seam in practice"), built on Seam's lean client `@seamapi/http`.
 *
 * - A code is never assumed set: `programCode` reports what Seam answers (`unset`/`setting` →
 *   `setting`), and only a status read or an `access_code.set_on_device` event says `set`.
 * - Every call returns a result; nothing Seam answers is thrown. Failures are classified by Seam's
 *   error `type` (see `classifySeamError`); anything not recognisably a success is a failure.
 * - The client's own retries are off: a lost answer to `create` retried blindly would meet our own
 *   code as a "duplicate". Retrying is the worker's decision, on the classification.
 * - Logs carry provider, endpoint, outcome, code, our correlation id and Seam's request id — never
 *   a PIN, the API key or a body (Seam's error messages can quote the PIN, so they are not logged).
 */

export type SeamProviderOptions = {
  apiKey: string;
  /** Seam's API base (`SEAM_ENDPOINT`); Seam's own when absent. Tests point it at the fake. */
  endpoint?: string;
  timeoutMs?: number;
};

type Failure = { ok: false; code: string; retryable: boolean };

const failure = (code: string, retryable: boolean): Failure => ({ ok: false, code, retryable });

/** Seam error types we recognise, in our words. */
const SEAM_ERRORS: Record<string, { code: string; retryable: boolean }> = {
  duplicate_access_code: { code: 'duplicate_code_on_device', retryable: false },
  duplicate_code_on_device: { code: 'duplicate_code_on_device', retryable: false },
  no_space_for_access_code_on_device: { code: 'no_space_for_access_code_on_device', retryable: false },
  august_device_slots_full: { code: 'no_space_for_access_code_on_device', retryable: false },
  smartthings_no_free_slots_available: { code: 'no_space_for_access_code_on_device', retryable: false },
  // Repeating the same request fails the same way: a backup code stands in (DESIGN.md, Keys 6).
  failed_to_set_on_device: { code: 'failed_to_set_on_device', retryable: false },
  device_not_found: { code: 'device_not_found', retryable: false },
  access_code_not_found: { code: 'code_not_found', retryable: false },
  not_found: { code: 'code_not_found', retryable: false },
  invalid_input: { code: 'invalid_input', retryable: false },
  unauthorized: { code: 'unauthorized', retryable: false },
  invalid_api_key: { code: 'unauthorized', retryable: false },
  api_key_not_found: { code: 'unauthorized', retryable: false },
  forbidden: { code: 'unauthorized', retryable: false },
  // What Seam's fake answers for an API key it does not know: a credential problem all the same.
  missing_workspace_id: { code: 'unauthorized', retryable: false },
  // A person must reconnect the vendor account in Seam; retrying cannot.
  account_disconnected: { code: 'account_disconnected', retryable: false },
  device_offline: { code: 'device_offline', retryable: true },
  device_disconnected: { code: 'device_offline', retryable: true },
  hub_disconnected: { code: 'device_offline', retryable: true },
  bridge_disconnected: { code: 'device_offline', retryable: true },
  august_lock_temporarily_offline: { code: 'device_offline', retryable: true },
  rate_limited: { code: 'rate_limited', retryable: true },
  too_many_requests: { code: 'rate_limited', retryable: true },
};

/** Seam code errors that mean the code did not make it onto the lock. */
const FAILED_TO_SET: ReadonlySet<string> = new Set([
  'failed_to_set_on_device',
  'duplicate_code_on_device',
  'no_space_for_access_code_on_device',
  'august_device_slots_full',
  'august_lock_invalid_code_length',
  'august_lock_missing_keypad',
  'smartthings_failed_to_set_access_code',
  'smartthings_failed_to_set_after_multiple_retries',
  'smartthings_no_free_slots_available',
  'wyze_duplicate_code_name',
  'wyze_potential_duplicate_code',
]);

type Classified = Failure & { seamRequestId: string | null };

/**
 * Classifies anything a Seam call threw. Seam API errors by their `type`; HTTP 5xx, 429, timeouts
 * and network errors are retryable; 401/403 never are; anything unrecognisable is a retryable failure.
 */
export function classifySeamError(error: unknown): Classified {
  if (seamModule?.isSeamHttpApiError(error)) {
    const seamRequestId = error.requestId || null;
    if (error.statusCode >= 500) return { ...failure(`http_${error.statusCode}`, true), seamRequestId };
    const known = SEAM_ERRORS[error.code];
    if (known) return { ...failure(known.code, known.retryable), seamRequestId };
    if (error.statusCode === 401 || error.statusCode === 403)
      return { ...failure('unauthorized', false), seamRequestId };
    if (error.statusCode === 429) return { ...failure('rate_limited', true), seamRequestId };
    const type = /^[a-z0-9_]{1,64}$/.test(error.code) ? error.code : 'unrecognised';
    return { ...failure(`seam_${type}`, true), seamRequestId };
  }
  const axiosLike = error as {
    isAxiosError?: boolean;
    code?: unknown;
    response?: { status?: unknown; headers?: Record<string, unknown> };
  } | null;
  if (axiosLike?.isAxiosError === true) {
    const status = typeof axiosLike.response?.status === 'number' ? axiosLike.response.status : null;
    const header = axiosLike.response?.headers?.['seam-request-id'];
    const seamRequestId = typeof header === 'string' && header ? header : null;
    if (status === null) {
      const timedOut = axiosLike.code === 'ECONNABORTED' || axiosLike.code === 'ETIMEDOUT';
      return { ...failure(timedOut ? 'timeout' : 'network_error', true), seamRequestId };
    }
    if (status === 401 || status === 403) return { ...failure('unauthorized', false), seamRequestId };
    if (status === 429) return { ...failure('rate_limited', true), seamRequestId };
    // A 5xx (a Seam outage answers 503), or any status without Seam's error body: not a success.
    return { ...failure(`http_${status}`, true), seamRequestId };
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { ...failure('timeout', true), seamRequestId: null };
  return { ...failure('malformed_response', true), seamRequestId: null };
}

// ---- what Seam answers, as far as we rely on it -------------------------------------------

const ZSeamDeviceSchema = z.looseObject({
  device_id: z.string().min(1),
  device_type: z.string().optional(),
  display_name: z.string().nullish(),
  can_program_online_access_codes: z.boolean().nullish(),
  can_program_offline_access_codes: z.boolean().nullish(),
  errors: z.array(z.looseObject({ error_code: z.string() })).nullish(),
  properties: z
    .looseObject({
      name: z.string().nullish(),
      appearance: z.looseObject({ name: z.string().nullish() }).nullish(),
      online: z.boolean().nullish(),
      battery_level: z.number().nullish(),
      battery: z.looseObject({ level: z.number().nullish() }).nullish(),
      supports_backup_access_code_pool: z.boolean().nullish(),
      online_access_codes_enabled: z.boolean().nullish(),
      offline_access_codes_enabled: z.boolean().nullish(),
    })
    .nullish(),
});
type TSeamDevice = z.infer<typeof ZSeamDeviceSchema>;

const ZSeamAccessCodeSchema = z.looseObject({
  access_code_id: z.string().min(1),
  device_id: z.string().min(1),
  name: z.string().nullish(),
  code: z.string().nullish(),
  status: z.string(),
  errors: z.array(z.looseObject({ error_code: z.string() })).nullish(),
  starts_at: z.string().nullish(),
  ends_at: z.string().nullish(),
});
type TSeamAccessCode = z.infer<typeof ZSeamAccessCodeSchema>;

/** Seam's lock device types (`@seamapi/types` LOCK_DEVICE_TYPE): a thermostat or a sensor is not a lock. */
const LOCK_DEVICE_TYPES: ReadonlySet<string> = new Set([
  'akuvox_lock',
  'august_lock',
  'brivo_access_point',
  'butterflymx_panel',
  'avigilon_alta_entry',
  'doorking_lock',
  'genie_door',
  'igloo_lock',
  'linear_lock',
  'lockly_lock',
  'kwikset_lock',
  'nuki_lock',
  'salto_lock',
  'schlage_lock',
  'seam_relay',
  'smartthings_lock',
  'wyze_lock',
  'yale_lock',
  'two_n_intercom',
  'controlbyweb_device',
  'ttlock_lock',
  'igloohome_lock',
  'hubitat_lock',
  'four_suites_door',
  'dormakaba_oracode_door',
  'tedee_lock',
  'akiles_lock',
]);

const isLock = (device: TSeamDevice) =>
  device.can_program_online_access_codes === true || LOCK_DEVICE_TYPES.has(device.device_type ?? '');

/** Seam reports battery as 0–1; we keep a whole percentage, or null when it says nothing usable. */
function batteryPercent(device: TSeamDevice): number | null {
  const level = device.properties?.battery_level ?? device.properties?.battery?.level;
  if (typeof level !== 'number' || !Number.isFinite(level) || level < 0 || level > 1) return null;
  return Math.round(level * 100);
}

/** Seam's device errors that say the bridge or hub the lock is reached through is down, not the lock. */
const BRIDGE_DOWN: ReadonlySet<string> = new Set(['hub_disconnected', 'bridge_disconnected']);

function offlineReasonOf(device: TSeamDevice, online: boolean | null): DeviceOfflineReason | null {
  if (online !== false) return null;
  return (device.errors ?? []).some((e) => BRIDGE_DOWN.has(e.error_code)) ? 'gateway_offline' : 'device_offline';
}

function toDevice(device: TSeamDevice): ProviderDevice {
  const online = typeof device.properties?.online === 'boolean' ? device.properties.online : null;
  return {
    deviceId: device.device_id,
    // Seam's display name is the nickname, else the vendor's name for the device.
    name: device.display_name || device.properties?.appearance?.name || device.properties?.name || device.device_id,
    online,
    offlineReason: offlineReasonOf(device, online),
    batteryLevel: batteryPercent(device),
    canProgramOnline: device.can_program_online_access_codes === true,
    canProgramOffline: device.can_program_offline_access_codes === true,
    supportsBackupCodes: device.properties?.supports_backup_access_code_pool === true,
  };
}

/** The code error that explains a failure, else the first one Seam lists. */
function codeError(code: TSeamAccessCode): string | null {
  const errors = code.errors ?? [];
  return (errors.find((e) => FAILED_TO_SET.has(e.error_code)) ?? errors[0])?.error_code ?? null;
}

/** Seam's status in our words: `set` only when Seam says `set`; a failed-to-set error is `failed`. */
function stateOf(code: TSeamAccessCode): CodeState {
  if ((code.errors ?? []).some((e) => FAILED_TO_SET.has(e.error_code))) return 'failed';
  switch (code.status) {
    case 'set':
      return 'set';
    case 'removing':
      return 'removing';
    default:
      // unset, setting, unknown and anything new: not confirmed.
      return 'setting';
  }
}

function toDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function toCode(code: TSeamAccessCode): ProviderCode {
  return {
    codeId: code.access_code_id,
    clientRef: clientRefOf(code.name),
    state: stateOf(code),
    error: codeError(code),
    validFrom: toDate(code.starts_at),
    expiresAt: toDate(code.ends_at),
  };
}

const MAX_PAGES = 50;

/** What we use of the client's paginator (the response types come from an optional peer package). */
type Page = readonly [readonly unknown[], { hasNextPage: boolean; nextPageCursor: SeamPageCursor | null }];
type Paginator = { firstPage(): Promise<Page>; nextPage(cursor: SeamPageCursor | null): Promise<Page> };

const BACKUP_SUPPORT_TTL_MS = 10 * 60_000;
const backupSupport = new Map<string, { supported: boolean; at: number }>();

/** Seam's action attempt (`locks/unlock_door`, `action_attempts/get`), or null when the answer is not one. */
const ZActionAttemptSchema = z.looseObject({
  action_attempt: z.looseObject({
    action_attempt_id: z.string().min(1),
    status: z.enum(['pending', 'success', 'error']),
    error: z.looseObject({ type: z.string().optional() }).nullish(),
  }),
});
function parseAttempt(answer: unknown) {
  const parsed = ZActionAttemptSchema.safeParse(answer);
  return parsed.success ? parsed.data.action_attempt : null;
}

/**
 * Seam's client, loaded by the first call that needs it: loading it costs about 0.7 s of CPU, which a process that
 * never talks to Seam (a start, a health check, a tenant on another vendor) should not pay (docs/PERFORMANCE.md,
 * First start). Until then nothing can have thrown one of its errors.
 */
let seamModule: typeof import('@seamapi/http/connect') | null = null;

/** A `LockProvider` over Seam's API. */
export function createSeamProvider(options: SeamProviderOptions): LockProvider {
  let seam!: SeamHttp;
  let client: Promise<void> | null = null;
  const connect = () =>
    (client ??= import('@seamapi/http/connect').then((module) => {
      seamModule = module;
      seam = module.SeamHttp.fromApiKey(options.apiKey, {
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        axiosOptions: { timeout: options.timeoutMs ?? 10_000 },
        axiosRetryOptions: { retries: 0 },
      });
    }));
  const endpointLabel = options.endpoint ?? 'seam';

  function log(endpoint: string, ctx: CallContext, outcome: string, extra: Record<string, unknown> = {}) {
    const line = { provider: 'seam', endpoint, outcome, correlationId: ctx.correlationId, ...extra };
    if (outcome === 'failed') logger.warn(line, 'lock provider call failed');
    else logger.info(line, 'lock provider call');
  }

  /**
   * Runs one Seam call: parses what it answers with `parse` (null = not the shape of a success),
   * classifies what it throws. `expected` turns a recognised failure into an answer (e.g. a code
   * Seam no longer knows).
   */
  async function call<T>(
    endpoint: string,
    ctx: CallContext,
    run: () => Promise<unknown>,
    parse: (answer: unknown) => T | null,
    expected?: (failed: Classified) => T | undefined,
  ): Promise<LockResult<T>> {
    let answer: unknown;
    try {
      await connect();
      answer = await run();
    } catch (error) {
      const classified = classifySeamError(error);
      const substitute = expected?.(classified);
      if (substitute !== undefined) {
        log(endpoint, ctx, classified.code, { seamRequestId: classified.seamRequestId });
        return { ok: true, data: substitute };
      }
      log(endpoint, ctx, 'failed', {
        code: classified.code,
        retryable: classified.retryable,
        seamRequestId: classified.seamRequestId,
      });
      return failure(classified.code, classified.retryable);
    }
    const data = parse(answer);
    if (data === null) {
      log(endpoint, ctx, 'failed', { code: 'malformed_response', retryable: true });
      return failure('malformed_response', true);
    }
    log(endpoint, ctx, 'ok');
    return { ok: true, data };
  }

  const parseCode = (answer: unknown) => {
    const parsed = ZSeamAccessCodeSchema.safeParse(answer);
    return parsed.success ? parsed.data : null;
  };
  const parseList =
    <T>(schema: z.ZodType<T>) =>
    (answer: unknown): T[] | null => {
      const parsed = z.array(schema).safeParse(answer);
      return parsed.success ? parsed.data : null;
    };

  /** Every page of a list endpoint (bounded), or what it threw. */
  async function allPages(paginator: Paginator): Promise<unknown[]> {
    let [items, pagination] = await paginator.firstPage();
    const all: unknown[] = [...items];
    for (let page = 1; pagination.hasNextPage && page < MAX_PAGES; page++) {
      [items, pagination] = await paginator.nextPage(pagination.nextPageCursor);
      all.push(...items);
    }
    if (pagination.hasNextPage) throw new Error('too many pages');
    return all;
  }

  /** Whether the device keeps a backup pool (cached a few minutes; device ids are unique across Seam). */
  async function supportsBackup(deviceId: string, ctx: CallContext): Promise<LockResult<boolean>> {
    const key = `${endpointLabel}|${deviceId}`;
    const cached = backupSupport.get(key);
    if (cached && Date.now() - cached.at < BACKUP_SUPPORT_TTL_MS) return { ok: true, data: cached.supported };
    const result = await call(
      'devices.get',
      ctx,
      () => seam.devices.get({ device_id: deviceId }),
      (answer) => {
        const parsed = ZSeamDeviceSchema.safeParse(answer);
        return parsed.success ? parsed.data : null;
      },
    );
    if (!result.ok) return result;
    const supported = result.data.properties?.supports_backup_access_code_pool === true;
    rememberBackup(key, supported);
    return { ok: true, data: supported };
  }

  function rememberBackup(key: string, supported: boolean) {
    backupSupport.delete(key);
    backupSupport.set(key, { supported, at: Date.now() });
    if (backupSupport.size > 10_000) backupSupport.delete(backupSupport.keys().next().value!);
  }

  const provider: LockProvider = {
    name: 'seam',

    async listDevices(ctx) {
      const result = await call(
        'devices.list',
        ctx,
        () => allPages(seam.createPaginator(seam.devices.list())),
        parseList(ZSeamDeviceSchema),
      );
      if (!result.ok) return result;
      const locks = result.data.filter(isLock).map(toDevice);
      for (const lock of locks) rememberBackup(`${endpointLabel}|${lock.deviceId}`, lock.supportsBackupCodes);
      return { ok: true, data: locks };
    },

    async programCode(input) {
      const backup = await supportsBackup(input.deviceId, input);
      if (!backup.ok) return backup;
      const created = await call(
        'access_codes.create',
        input,
        () =>
          seam.accessCodes.create({
            device_id: input.deviceId,
            name: codeName(input.clientRef),
            code: input.pin,
            starts_at: input.validFrom.toISOString(),
            ends_at: input.expiresAt.toISOString(),
            ...(backup.data ? { use_backup_access_code_pool: true } : {}),
          }),
        parseCode,
      );
      if (created.ok) {
        if (created.data.device_id !== input.deviceId) return failure('malformed_response', true);
        return { ok: true, data: { codeId: created.data.access_code_id, state: stateOf(created.data) } };
      }
      if (created.code !== 'duplicate_code_on_device') return created;
      // The "duplicate" may be our own code from an earlier call whose answer was lost.
      const existing = await provider.listCodes({ deviceId: input.deviceId, correlationId: input.correlationId });
      const ours = existing.ok ? existing.data.filter((code) => code.clientRef === input.clientRef) : [];
      if (ours.length === 1) return { ok: true, data: { codeId: ours[0]!.codeId, state: ours[0]!.state } };
      return created;
    },

    async removeCode(input) {
      const deleted = await call(
        'access_codes.delete',
        input,
        () => seam.accessCodes.delete({ access_code_id: input.codeId }),
        () => 'requested' as const,
        (failed) => (failed.code === 'code_not_found' ? ('absent' as const) : undefined),
      );
      if (!deleted.ok) return deleted;
      if (deleted.data === 'absent') return { ok: true, data: { state: 'absent' } };
      // Seam removes the code from the lock after answering; only Seam's word makes it absent.
      const after = await provider.getCode(input);
      if (after.ok && after.data === null) return { ok: true, data: { state: 'absent' } };
      return { ok: true, data: { state: 'removing' } };
    },

    async updateCodeWindow(input) {
      const updated = await call(
        'access_codes.update',
        input,
        // POST, as Seam documents the route (the client's own `update` sends PUT, which Seam's fake refuses).
        () =>
          seam.client.post('/access_codes/update', {
            access_code_id: input.codeId,
            starts_at: input.validFrom.toISOString(),
            ends_at: input.expiresAt.toISOString(),
          }),
        () => 'requested' as const,
      );
      if (!updated.ok) return updated;
      // Seam puts the new window on the lock after answering: only its own read says it is there.
      const after = await provider.getCode(input);
      if (!after.ok) return after.retryable ? { ok: true, data: { state: 'setting' } } : after;
      if (!after.data) return failure('code_not_found', false);
      const windowHeld =
        after.data.validFrom?.getTime() === input.validFrom.getTime() &&
        after.data.expiresAt?.getTime() === input.expiresAt.getTime();
      if (after.data.state === 'failed') return { ok: true, data: { state: 'failed' } };
      return { ok: true, data: { state: windowHeld && after.data.state === 'set' ? 'set' : 'setting' } };
    },

    async getCode(input) {
      const result = await call(
        'access_codes.get',
        input,
        () => seam.accessCodes.get({ access_code_id: input.codeId }),
        parseCode,
        (failed) => (failed.code === 'code_not_found' ? null : undefined),
      );
      if (!result.ok) return result;
      if (result.data === null) return { ok: true, data: null };
      // A code on another device is not the code we asked about: never act on it.
      if (result.data.device_id !== input.deviceId) return failure('code_device_mismatch', false);
      return { ok: true, data: toCode(result.data) };
    },

    async listCodes(input) {
      const managed = await call(
        'access_codes.list',
        input,
        () => allPages(seam.createPaginator(seam.accessCodes.list({ device_id: input.deviceId }))),
        parseList(ZSeamAccessCodeSchema),
      );
      if (!managed.ok) return managed;
      // Codes set on the lock outside Seam (drift) are listed apart by Seam.
      const unmanaged = await call(
        'access_codes.unmanaged.list',
        input,
        () => seam.accessCodes.unmanaged.list({ device_id: input.deviceId }),
        parseList(ZSeamAccessCodeSchema),
      );
      if (!unmanaged.ok) return unmanaged;
      const byId = new Map<string, ProviderCode>();
      for (const code of [...managed.data, ...unmanaged.data]) {
        if (code.device_id === input.deviceId && !byId.has(code.access_code_id))
          byId.set(code.access_code_id, toCode(code));
      }
      return { ok: true, data: [...byId.values()] };
    },

    async checkHealth(ctx) {
      const result = await call(
        'workspaces.get',
        ctx,
        () => seam.workspaces.get(),
        (answer) => (z.looseObject({ workspace_id: z.string().min(1) }).safeParse(answer).success ? true : null),
      );
      return result.ok ? { ok: true, data: null } : result;
    },

    async unlockDoor(input) {
      const ZDeviceCapabilitySchema = z.looseObject({ can_remotely_unlock: z.boolean().optional() });
      const capable = await call(
        'devices.get',
        input,
        async () => (await seam.client.post('/devices/get', { device_id: input.deviceId })).data,
        (answer) => {
          const device = z.looseObject({ device: ZDeviceCapabilitySchema }).safeParse(answer);
          return device.success ? device.data.device.can_remotely_unlock !== false : null;
        },
      );
      if (!capable.ok) return capable;
      if (!capable.data) return failure('not_supported', false);
      // Seam answers at once with its action attempt, usually pending: the lock confirms within seconds, read later
      // (`readUnlock`) or reported by lock.unlocked with the attempt's id. Nobody waits for it here.
      const attempt = await call(
        'locks.unlock_door',
        input,
        async () => (await seam.client.post('/locks/unlock_door', { device_id: input.deviceId })).data,
        parseAttempt,
      );
      if (!attempt.ok) return attempt;
      if (attempt.data.status === 'error') return failure(attempt.data.error?.type ?? 'unlock_failed', false);
      return {
        ok: true,
        data: {
          actionId: attempt.data.action_attempt_id,
          status: attempt.data.status === 'success' ? 'done' : 'pending',
        },
      };
    },

    async readUnlock(input) {
      const attempt = await call(
        'action_attempts.get',
        input,
        async () => (await seam.client.post('/action_attempts/get', { action_attempt_id: input.actionId })).data,
        parseAttempt,
      );
      if (!attempt.ok) return attempt;
      const { status, error } = attempt.data;
      return {
        ok: true,
        data: {
          status: status === 'success' ? 'done' : status === 'error' ? 'failed' : 'pending',
          error: status === 'error' ? (error?.type ?? 'unlock_failed').slice(0, 100) : null,
        },
      };
    },

    async pullBackupCode(input) {
      const ZAnswerSchema = z.looseObject({
        backup_access_code: ZSeamAccessCodeSchema.optional(),
        access_code: ZSeamAccessCodeSchema.optional(),
      });
      const result = await call(
        'access_codes.pull_backup_access_code',
        input,
        async () =>
          (await seam.client.post('/access_codes/pull_backup_access_code', { access_code_id: input.codeId })).data,
        (answer) => {
          const parsed = ZAnswerSchema.safeParse(answer);
          if (!parsed.success) return null;
          const backup = parsed.data.backup_access_code ?? parsed.data.access_code;
          const pin = backup?.code ?? '';
          if (!backup || backup.device_id !== input.deviceId || !/^\d{4,12}$/.test(pin)) return null;
          return { codeId: backup.access_code_id, pin };
        },
      );
      return result;
    },
  };
  return provider;
}
