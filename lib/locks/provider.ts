/**
 * The lock-provider port: what UnlockOS needs from any lock platform (Seam, TTLock, the simulator,
 * which speaks TTLock's protocol). One adapter per provider lives beside this file; the domain
 * (lib/keys, lib/locks/*-sync) only ever sees these types.
 *
 * Every call returns a result, never throws for a provider's answer: a failure is classified into
 * a code and whether retrying can help (DESIGN.md, Keys 5). Anything not recognisably a success is
 * a failure. Adapters log code, endpoint and correlation id — never bodies, PINs or tokens.
 */

export type LockResult<T> = { ok: true; data: T } | { ok: false; code: string; retryable: boolean };

export type LockProviderName = 'simulator' | 'seam' | 'ttlock';

/** Where a code stands on a device, by the provider's word (Seam: unset → setting → set → removing). */
export type CodeState = 'setting' | 'set' | 'removing' | 'absent' | 'failed';

/** A device as the provider lists it. */
export type ProviderDevice = {
  deviceId: string;
  name: string;
  /** Whether the device (or its bridge) is reachable now; null when the provider does not say. */
  online: boolean | null;
  /**
   * Why it is not online, where the provider says: the lock itself, the gateway or bridge it is
   * reached through (TTLock keeps saying a lock "has a gateway" for a while after that gateway went),
   * or no gateway at all. Null while online or unknown; absent from adapters that never say.
   */
  offlineReason?: DeviceOfflineReason | null;
  /** Battery as a percentage 0–100; null when the provider does not say. */
  batteryLevel: number | null;
  /** Codes can be set and removed remotely. */
  canProgramOnline: boolean;
  /** Algorithmic (offline) codes can be issued: valid on the lock without a bridge, never removable. */
  canProgramOffline: boolean;
  /** The provider keeps a pool of pre-programmed backup codes for this device. */
  supportsBackupCodes: boolean;
};

export type DeviceOfflineReason = 'device_offline' | 'gateway_offline' | 'no_gateway';

/** A code on a device, as the provider reports it. */
export type ProviderCode = {
  codeId: string;
  /** Our access key id when we made the code (carried in its name), else null: a code we did not make. */
  clientRef: string | null;
  state: CodeState;
  /** The provider's error on this code (e.g. `failed_to_set_on_device`), null when none. */
  error: string | null;
  validFrom: Date | null;
  expiresAt: Date | null;
};

export type CallContext = { correlationId: string };

export type ProgramCodeInput = CallContext & {
  deviceId: string;
  pin: string;
  validFrom: Date;
  expiresAt: Date;
  /** Our access key id: lets a retry find a code that an earlier, lost call already set. */
  clientRef: string;
};

export type LockProvider = {
  readonly name: LockProviderName;
  /** The tenant's devices that are locks (a thermostat is not listed). */
  listDevices(ctx: CallContext): Promise<LockResult<ProviderDevice[]>>;
  /**
   * Asks the provider to put a time-bound code on a device. `state` is the provider's word right
   * after: `set` only when it says so synchronously (TTLock through a gateway); Seam answers
   * `setting` and confirms later by status or event. A duplicate PIN is `duplicate_code_on_device`.
   */
  programCode(input: ProgramCodeInput): Promise<LockResult<{ codeId: string; state: CodeState }>>;
  /** Asks for a code's removal: `absent` when confirmed gone, `removing` when the provider confirms later. */
  removeCode(input: CallContext & { deviceId: string; codeId: string }): Promise<LockResult<{ state: CodeState }>>;
  /**
   * Changes the window of a code already on the device, in place: the same code and PIN stay on the
   * lock meanwhile, so a guest using it is never locked out by the change. `set` once the provider
   * says the lock has the new window, `setting` while it has not confirmed it yet (ask again); a
   * code the provider no longer has is `code_not_found`. Only where the provider can.
   */
  updateCodeWindow?(
    input: CallContext & { deviceId: string; codeId: string; validFrom: Date; expiresAt: Date },
  ): Promise<LockResult<{ state: CodeState }>>;
  /** One code by id; null when the provider no longer has it. */
  getCode(input: CallContext & { deviceId: string; codeId: string }): Promise<LockResult<ProviderCode | null>>;
  /** Every code the provider holds for a device: ours (clientRef set) and any others (drift). */
  listCodes(input: CallContext & { deviceId: string }): Promise<LockResult<ProviderCode[]>>;
  /**
   * Opens the door now, remotely (Seam `locks/unlock_door`, TTLock `/v3/lock/unlock` through the gateway). `done` once
   * the provider says the lock opened, `pending` while it has not confirmed yet (Seam's action attempt, read later by
   * `readUnlock`; or an answer lost on the way, whose outcome only the door's record will tell); a device that cannot
   * is `not_supported`. Never retried by the caller: a door opened late is worse than one not opened. Only where the
   * provider can.
   */
  unlockDoor?(input: CallContext & { deviceId: string }): Promise<LockResult<RemoteUnlockAnswer>>;
  /** Where an earlier `unlockDoor` stands by the provider's action id (Seam `action_attempts/get`). */
  readUnlock?(input: CallContext & { deviceId: string; actionId: string }): Promise<LockResult<RemoteUnlockState>>;
  /**
   * The door's records the provider holds (TTLock `/v3/lockRecord/list`): what happened at a device from `from` on
   * (by the lock's own clock), whenever they reached the provider. Every page or nothing: a page that fails fails the
   * read, so a reader never skips records it did not see. Only where the provider keeps records to read.
   */
  listDoorRecords?(input: CallContext & { deviceId: string; from: Date }): Promise<LockResult<ProviderDoorRecord[]>>;
  /** Whether the provider answers and accepts the credentials (a fresh sign-in, never a cached token). */
  checkHealth(ctx: CallContext): Promise<LockResult<null>>;
  /**
   * An offline (algorithmic) code for the window: valid on the lock from `validFrom` to `expiresAt`
   * without any bridge, and impossible to remove remotely. Only where the device can.
   */
  offlineCode?(
    input: CallContext & { deviceId: string; validFrom: Date; expiresAt: Date; clientRef: string },
  ): Promise<LockResult<{ codeId: string; pin: string }>>;
  /**
   * A pre-programmed backup code standing in for a code that could not be set (`codeId`), with its
   * window. Only where the provider keeps a pool.
   */
  pullBackupCode?(
    input: CallContext & { deviceId: string; codeId: string },
  ): Promise<LockResult<{ codeId: string; pin: string }>>;
};

/** A remote unlock as the provider answered it: its action id where it gives one (Seam), null where not (TTLock). */
export type RemoteUnlockAnswer = { actionId: string | null; status: 'done' | 'pending' };
/** Where a remote unlock's action stands; `error` is the provider's code for one that failed. */
export type RemoteUnlockState = { status: 'done' | 'pending' | 'failed'; error: string | null };

/**
 * One record of a door, in our words: an opening or a locking (`kind`; null for what is neither — a door sensor, a
 * tamper alarm, a failed try), how (`method`), when by the lock's clock (`occurredAt`) and when the provider had it
 * (`uploadedAt`). `pin` is the passcode typed for a record by code (TTLock names no code id, only the PIN): it only
 * ever goes to the database to name the key, never to a log. `remote`: the provider's own remote unlock (TTLock's
 * gateway unlock), which a remote unlock from the desk causes.
 */
export type ProviderDoorRecord = {
  eventId: string;
  kind: 'unlocked' | 'locked' | null;
  method: 'code' | 'app' | 'manual' | 'unknown';
  success: boolean;
  occurredAt: Date;
  uploadedAt: Date | null;
  pin: string | null;
  remote: boolean;
};

/** The name a code carries on the provider's side: how `clientRef` survives a lost answer. */
export const codeName = (clientRef: string) => `unlockos:${clientRef}`;

/** The key id in a code's name, or null for a code we did not make. */
export function clientRefOf(name: string | null | undefined): string | null {
  const match = /^unlockos:([0-9a-f-]{36})$/i.exec(name ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * A provider's event about a code or a device, in our words (Seam's `access_code.*` and `device.*`
 * webhooks; a status read that finds a change is turned into the same). Applied by lib/locks/lock-events.ts.
 */
export type LockEvent =
  | {
      kind: 'code_set' | 'code_removed' | 'code_failed' | 'code_delayed';
      deviceId: string;
      codeId: string;
      /** The provider's error code for a failure or delay, e.g. `failed_to_set_on_device`. */
      error: string | null;
      occurredAt: Date;
    }
  | {
      kind: 'device_connected' | 'device_disconnected' | 'low_battery' | 'tampered';
      deviceId: string;
      /** Percentage 0–100 when the event carries it. */
      batteryLevel: number | null;
      occurredAt: Date;
    };
