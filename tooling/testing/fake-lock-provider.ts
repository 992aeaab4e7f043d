import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { CodeState, LockProvider, LockResult, ProviderCode, ProviderDevice } from '../../lib/locks/provider';

type FakeCode = ProviderCode & { deviceId: string; pin: string };
type Failure = { code: string; retryable: boolean };

/**
 * An in-memory lock provider for tests of the domain around the port (door sync, locks-sync):
 * devices, codes with Seam-like states, and switches for what the next calls answer. The adapters
 * themselves are tested against their real protocols (the simulator, Seam's fake server).
 */
export function fakeLockProvider(options: { name?: LockProvider['name']; devices?: ProviderDevice[] } = {}) {
  const codes = new Map<string, FakeCode>();
  const calls: { method: string; deviceId?: string }[] = [];
  const state = {
    devices: options.devices ?? [],
    /** What programCode answers for a code it accepted: Seam says `setting`, TTLock `set`. */
    acceptAs: 'set' as CodeState,
    /** Per device: every call about it fails with this. */
    failing: new Map<string, Failure>(),
    /** Removal answers `removing` (confirmed later) instead of `absent`. */
    removeLater: false,
    /** What a remote unlock answers: opened, or sent and not confirmed yet. */
    unlockAs: 'done' as 'done' | 'pending',
  };
  const fail = (deviceId: string): LockResult<never> | null => {
    const failure = state.failing.get(deviceId);
    return failure ? { ok: false, ...failure } : null;
  };
  const provider: LockProvider = {
    name: options.name ?? 'seam',
    async listDevices() {
      calls.push({ method: 'listDevices' });
      return { ok: true, data: state.devices };
    },
    async programCode(input) {
      calls.push({ method: 'programCode', deviceId: input.deviceId });
      const failure = fail(input.deviceId);
      if (failure) return failure;
      const duplicate = [...codes.values()].some((c) => c.deviceId === input.deviceId && c.pin === input.pin);
      if (duplicate) return { ok: false, code: 'duplicate_code_on_device', retryable: false };
      const codeId = `code-${randomUUID()}`;
      codes.set(codeId, {
        codeId,
        deviceId: input.deviceId,
        pin: input.pin,
        clientRef: input.clientRef,
        state: state.acceptAs,
        error: null,
        validFrom: input.validFrom,
        expiresAt: input.expiresAt,
      });
      return { ok: true, data: { codeId, state: state.acceptAs } };
    },
    async unlockDoor(input) {
      calls.push({ method: 'unlockDoor', deviceId: input.deviceId });
      const failure = fail(input.deviceId);
      if (failure) return failure;
      return {
        ok: true,
        data: { actionId: state.unlockAs === 'pending' ? `action-${randomUUID()}` : null, status: state.unlockAs },
      };
    },
    async removeCode(input) {
      calls.push({ method: 'removeCode', deviceId: input.deviceId });
      const failure = fail(input.deviceId);
      if (failure) return failure;
      const code = codes.get(input.codeId);
      if (!code) return { ok: true, data: { state: 'absent' } };
      if (state.removeLater) {
        code.state = 'removing';
        return { ok: true, data: { state: 'removing' } };
      }
      codes.delete(input.codeId);
      return { ok: true, data: { state: 'absent' } };
    },
    async updateCodeWindow(input) {
      calls.push({ method: 'updateCodeWindow', deviceId: input.deviceId });
      const failure = fail(input.deviceId);
      if (failure) return failure;
      const code = codes.get(input.codeId);
      if (!code) return { ok: false, code: 'code_not_found', retryable: false };
      Object.assign(code, { validFrom: input.validFrom, expiresAt: input.expiresAt });
      return { ok: true, data: { state: code.state } };
    },
    async getCode(input) {
      calls.push({ method: 'getCode', deviceId: input.deviceId });
      const failure = fail(input.deviceId);
      if (failure) return failure;
      const code = codes.get(input.codeId);
      return { ok: true, data: code ? publicCode(code) : null };
    },
    async listCodes(input) {
      calls.push({ method: 'listCodes', deviceId: input.deviceId });
      const failure = fail(input.deviceId);
      if (failure) return failure;
      return { ok: true, data: [...codes.values()].filter((c) => c.deviceId === input.deviceId).map(publicCode) };
    },
    async checkHealth() {
      calls.push({ method: 'checkHealth' });
      return { ok: true, data: null };
    },
    // TTLock-like: an algorithmic code the lock accepts in its window without any bridge.
    async offlineCode(input) {
      calls.push({ method: 'offlineCode', deviceId: input.deviceId });
      const failure = fail(input.deviceId);
      if (failure) return failure;
      const codeId = `offline-${randomUUID()}`;
      const pin = String(Math.floor(100_000_000 + Math.random() * 899_999_999));
      codes.set(codeId, {
        codeId,
        deviceId: input.deviceId,
        pin,
        clientRef: input.clientRef,
        state: 'set',
        error: null,
        validFrom: input.validFrom,
        expiresAt: input.expiresAt,
      });
      return { ok: true, data: { codeId, pin } };
    },
    // Seam-like: a pre-programmed code from the device's pool, standing in for one that did not set.
    async pullBackupCode(input) {
      calls.push({ method: 'pullBackupCode', deviceId: input.deviceId });
      const failure = fail(input.deviceId);
      if (failure) return failure;
      const original = codes.get(input.codeId);
      if (!original) return { ok: false, code: 'access_code_not_found', retryable: false };
      const codeId = `backup-${randomUUID()}`;
      const pin = String(100000 + codes.size * 7919 + 13).slice(0, 6);
      codes.set(codeId, { ...original, codeId, pin, clientRef: null, state: 'set' });
      return { ok: true, data: { codeId, pin } };
    },
  };
  return {
    provider,
    calls,
    state,
    codes,
    /** The provider confirms (or fails, or finishes removing) a code, as a status read would then say. */
    settle(codeId: string, to: CodeState, error: string | null = null) {
      const code = codes.get(codeId);
      if (!code) throw new Error(`no code ${codeId}`);
      if (to === 'absent') codes.delete(codeId);
      else Object.assign(code, { state: to, error });
    },
    /** A code put on the lock by someone else (drift). */
    addForeignCode(deviceId: string, pin: string) {
      const codeId = `foreign-${randomUUID()}`;
      codes.set(codeId, {
        codeId,
        deviceId,
        pin,
        clientRef: null,
        state: 'set',
        error: null,
        validFrom: null,
        expiresAt: null,
      });
      return codeId;
    },
  };
}

function publicCode(code: FakeCode): ProviderCode {
  const { deviceId: _deviceId, pin: _pin, ...rest } = code;
  return rest;
}

export function fakeDevice(deviceId: string, overrides: Partial<ProviderDevice> = {}): ProviderDevice {
  return {
    deviceId,
    name: `Lock ${deviceId}`,
    online: true,
    batteryLevel: 80,
    canProgramOnline: true,
    canProgramOffline: false,
    supportsBackupCodes: false,
    ...overrides,
  };
}

/**
 * A tenant driven through `provider` (a test puts the fake in its place with `registerLockProvider`),
 * with credentials set and the provider's devices imported as its locks; its rooms have no door yet.
 */
export async function tenantOnProvider(options: { provider: 'seam' | 'ttlock'; rooms?: number }) {
  const { createBookableTenant, TEST_ACTOR } = await import('./fixtures');
  const { setLockProvider, syncLocks } = await import('../../lib/locks/locks');
  const { setProviderSecret } = await import('../../lib/secrets/provider-secrets');
  const tenant = await createBookableTenant({ rooms: options.rooms ?? 1, lockDevices: false });
  const { tenantId } = tenant;
  await setLockProvider({ tenantId, provider: options.provider, actor: TEST_ACTOR });
  // Each tenant its own account (a device belongs to one tenant): the same fake devices in every test.
  const value =
    options.provider === 'seam'
      ? `seam_test_key_${tenantId}`
      : JSON.stringify({ clientId: 'c', clientSecret: 's', username: `u-${tenantId}`, password: 'p' });
  await setProviderSecret({ tenantId, provider: options.provider, value, actor: TEST_ACTOR });
  const { locks } = await syncLocks({ tenantId, actor: TEST_ACTOR });
  const lock = (deviceId: string) => locks.find((l) => l.deviceId === deviceId)!.id;
  return { ...tenant, locks, lock };
}

/**
 * For a test file about the domain around the port: an admin connection for the file, and before
 * each test a fresh fake provider (with `devices()`) standing in for Seam. Read `admin` and `fake`
 * from the returned object inside the tests.
 */
export function withFakeSeam(devices: () => ProviderDevice[] = () => [fakeDevice('door-1')]) {
  const env = {} as { admin: pg.Client; fake: ReturnType<typeof fakeLockProvider> };
  beforeAll(async () => {
    const { adminClient } = await import('./fixtures');
    env.admin = await adminClient();
  });
  afterAll(async () => {
    await env.admin.end();
  });
  beforeEach(async () => {
    const { registerLockProvider } = await import('../../lib/locks/tenant-provider');
    env.fake = fakeLockProvider({ devices: devices() });
    registerLockProvider('seam', () => env.fake.provider);
  });
  return env;
}
