import type { Actor } from '../audit/actor';
import { hasSqlstate, SQLSTATE } from '../db/errors';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement, type Tx, withTenant } from '../db/tx';
import type { DoorRole, LockProvider as LockProviderName } from '../db/generated/enums';
import { AppError } from '../errors';
import { logger } from '../log/logger';
import { lockConnectionFor, tenantProviderName } from './tenant-provider';
import { INSTALL_ACCOUNT } from '../secrets/lock-account';
import { writeAuditEvent } from '../audit/write-audit-event';

/** `lock` in API.md: a provider's device and the rooms whose door it is. */
export type LockView = {
  id: string;
  provider: LockProviderName;
  deviceId: string;
  name: string;
  roomIds: string[];
  online: boolean | null;
  batteryLevel: number | null;
  lastSeenAt: string | null;
};

const lockSelect = {
  id: true,
  provider: true,
  deviceId: true,
  name: true,
  online: true,
  batteryLevel: true,
  lastSeenAt: true,
  rooms: { select: { roomId: true }, orderBy: { roomId: 'asc' } },
} as const;

type LockRow = {
  id: string;
  provider: LockProviderName;
  deviceId: string;
  name: string;
  online: boolean | null;
  batteryLevel: number | null;
  lastSeenAt: Date | null;
  rooms: { roomId: string }[];
};

export function toLockView(row: LockRow): LockView {
  return {
    id: row.id,
    provider: row.provider,
    deviceId: row.deviceId,
    name: row.name,
    roomIds: row.rooms.map((r) => r.roomId),
    online: row.online,
    batteryLevel: row.batteryLevel,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  };
}

/** The tenant's locks, by name (staff read, RLS by tenant). */
export async function listLocks({ tenantId }: { tenantId: string }): Promise<LockView[]> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.lock.findMany({ where: { tenantId }, select: lockSelect, orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
  );
  return rows.map(toLockView);
}

/** Chooses the provider a tenant's locks are driven through (credentials: `secret-set`), audited. */
export async function setLockProvider(input: {
  tenantId: string;
  provider: LockProviderName;
  actor: Actor;
}): Promise<{ provider: LockProviderName }> {
  return asService({ tenantId: input.tenantId }, (tx) => writeLockProvider(tx, input));
}

/** `setLockProvider` inside the caller's transaction (with its credentials, lib/locks/connect-lock-provider.ts). */
export async function writeLockProvider(
  tx: Tx,
  input: { tenantId: string; provider: LockProviderName; actor: Actor; metadata?: Record<string, unknown> },
): Promise<{ provider: LockProviderName }> {
  const { tenantId, provider, actor } = input;
  const updated = await tx.tenant.updateMany({ where: { id: tenantId }, data: { lockProvider: provider } });
  if (updated.count === 0) throw new AppError('not_found', 'Unknown tenant.');
  await writeAuditEvent(tx, {
    tenantId,
    actor,
    action: 'lock_provider.set',
    subject: { type: 'tenant' },
    metadata: { provider, ...input.metadata },
  });
  return { provider };
}

/**
 * The tenant's lock for a device of an account, made on first sight: the device becomes the
 * tenant's alone (the lookup `lock_devices`, migration 20261204100000). A device another tenant
 * holds is refused with `conflict`, saying so — for the operator's commands only (`lock-assign`,
 * `room-create --lock-device`); nothing a tenant's staff or API key can call reaches here.
 */
export async function holdLockDevice(
  tx: Tx,
  input: { tenantId: string; provider: LockProviderName; account: string; deviceId: string; name?: string },
): Promise<{ id: string; created: boolean }> {
  const { tenantId, provider, account, deviceId } = input;
  try {
    const [created] = await runInTransaction(tx, [
      statement<{ id: string }>(`
      insert into locks (tenant_id, provider, account, device_id, name)
      values (${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(provider, 'lock_provider')},
        ${sqlLiteral(account, 'text')}, ${sqlLiteral(deviceId, 'text')}, ${sqlLiteral(input.name ?? deviceId, 'text')})
      on conflict (tenant_id, provider, device_id) do nothing
      returning id`),
    ]);
    if (created[0]) return { id: created[0].id, created: true };
  } catch (error) {
    if (hasSqlstate(error, SQLSTATE.lockDeviceHeld))
      throw new AppError(
        'conflict',
        `Lock device ${deviceId} (${provider}) is assigned to another tenant; it stays theirs.`,
        { deviceId },
        { cause: error },
      );
    throw error;
  }
  const [lock] = await tx.lock.findMany({
    where: { tenantId, provider, deviceId },
    select: { id: true },
  });
  return { id: lock!.id, created: false };
}

/**
 * Gives a device of the install's own lock account (the simulator, or the account at
 * LOCK_VENDOR_URL) to one tenant — the operator's `lock-assign`: the tenant's lock for it, made
 * once (again → the same lock), audited `lock.assigned`. A device another tenant holds → `conflict`.
 */
export async function assignLockDevice(input: {
  tenantId: string;
  deviceId: string;
  actor: Actor;
}): Promise<{ lockId: string }> {
  const { tenantId, deviceId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const tenants = await tx.tenant.count({ where: { id: tenantId } });
    if (tenants !== 1) throw new AppError('not_found', 'Unknown tenant.');
    const lock = await assignInstallDevice(tx, { tenantId, deviceId, actor });
    return { lockId: lock.id };
  });
}

/** `assignLockDevice` inside the caller's transaction (a room's device, the demo's seed). */
export async function assignInstallDevice(
  tx: Tx,
  input: { tenantId: string; deviceId: string; actor: Actor },
): Promise<{ id: string }> {
  const { tenantId, deviceId, actor } = input;
  const lock = await holdLockDevice(tx, { tenantId, provider: 'simulator', account: INSTALL_ACCOUNT, deviceId });
  if (lock.created)
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'lock.assigned',
      subject: { type: 'lock', id: lock.id },
      metadata: { provider: 'simulator', deviceId },
    });
  return lock;
}

/**
 * Makes a lock one of a room's doors (its own, the main entrance…). Keys already live on the room
 * get the new door too, and their program job runs again: a stay's code goes on every door. A key
 * whose PIN is already live on that lock for someone else keeps its other doors and is logged.
 */
export async function addRoomLock(input: {
  tenantId: string;
  roomId: string;
  lockId: string;
  role?: DoorRole;
  actor: Actor;
}): Promise<{ roomId: string; lockId: string }> {
  const { tenantId, roomId, lockId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const [room, lock] = await Promise.all([
      tx.room.findFirst({ where: { tenantId, id: roomId }, select: { id: true } }),
      tx.lock.findFirst({ where: { tenantId, id: lockId }, select: { id: true } }),
    ]);
    if (!room) throw new AppError('not_found', 'Unknown room.');
    if (!lock) throw new AppError('not_found', 'Unknown lock.');
    const [, created] = await runInTransaction(tx, [
      // The room's door lock first: a key issued meanwhile is either seen below or reads the new door itself.
      effectStatement(`select app_lock_room_doors(${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(roomId, 'uuid')})`),
      statement(`insert into room_locks (tenant_id, room_id, lock_id, role)
      values (${sqlLiteral(tenantId, 'uuid')}, ${sqlLiteral(roomId, 'uuid')}, ${sqlLiteral(lockId, 'uuid')},
        ${sqlLiteral(input.role ?? 'room', 'door_role')})
      on conflict do nothing
      returning 1 as inserted`),
    ]);
    if (created.length === 0) return { roomId, lockId };
    // Each live key gets the door and its program job (app_attach_room_door).
    const [[sent]] = await runInTransaction(tx, [
      statement<{ keys: string[] }>(`select app_attach_room_door(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(roomId, 'uuid')}, ${sqlLiteral(lockId, 'uuid')}) as keys`),
    ]);
    const keys = sent?.keys ?? [];
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room.lock_added',
      subject: { type: 'room', id: roomId },
      roomId,
      metadata: { lockId, role: input.role ?? 'room', liveKeysSent: keys.length },
    });
    return { roomId, lockId };
  });
}

/**
 * Reads the provider's devices into the tenant's locks. On the tenant's own account new devices
 * are added; on the install's account (the simulator) only the devices the operator assigned to
 * the tenant are refreshed — the others are never imported, never counted, never shown. A device
 * another tenant holds is skipped on any account (`app_import_lock_devices`). Known locks get their
 * name, state and capabilities refreshed. Repeatable: a device is one lock however often it is read.
 */
export async function syncLocks(input: {
  tenantId: string;
  actor: Actor;
  correlationId?: string;
  /**
   * Only this device of the tenant's own account (a lock added by its id): one the account does not list is
   * `not_found`; the install's locks are given by the operator (`lock-assign`), never taken by id.
   */
  deviceId?: string;
}): Promise<{ imported: number; locks: LockView[] }> {
  const { tenantId, actor } = input;
  const name = await tenantProviderName(tenantId);
  // The install's locks (the simulator's account) are given by the operator (`lock-assign`), never taken by id.
  if (input.deviceId !== undefined && name === 'simulator')
    throw new AppError('forbidden', 'The install’s locks are given to a tenant by its operator, not taken by id.');
  const connection = await lockConnectionFor(tenantId, name);
  if (!connection.ok)
    throw new AppError('unavailable', `The lock provider is not set up (${connection.code}).`, {
      providerCode: connection.code,
    });
  const { provider, account } = connection.data;
  const own = account !== INSTALL_ACCOUNT;
  if (input.deviceId !== undefined && !own)
    throw new AppError('forbidden', 'The install’s locks are given to a tenant by its operator, not taken by id.');
  const devices = await provider.listDevices({ correlationId: input.correlationId ?? `locks-sync:${tenantId}` });
  if (!devices.ok) {
    logger.warn({ tenantId, provider: name, providerCode: devices.code }, 'locks-sync could not list devices');
    throw new AppError('unavailable', `The lock provider did not list its devices (${devices.code}).`, {
      providerCode: devices.code,
    });
  }
  if (input.deviceId !== undefined) {
    devices.data = devices.data.filter((device) => device.deviceId === input.deviceId);
    if (devices.data.length === 0)
      throw new AppError('not_found', 'The lock provider’s account has no lock with this device id.', {
        field: 'deviceId',
      });
  }
  return asService({ tenantId }, async (tx) => {
    const [rows] = await runInTransaction(tx, [
      statement<{ lockId: string; inserted: boolean }>(`
      select lock_id as "lockId", inserted from app_import_lock_devices(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(name, 'lock_provider')},
        ${sqlLiteral(account, 'text')}, ${sqlLiteral(JSON.stringify(devices.data), 'jsonb')},
        ${sqlLiteral(own, 'boolean')})`),
    ]);
    const imported = rows.filter((r) => r.inserted).length;
    if (input.deviceId !== undefined && rows.length === 0)
      throw new AppError('conflict', 'This lock is already another tenant’s: it cannot be added here.', {
        field: 'deviceId',
      });
    if (own && rows.length < devices.data.length)
      logger.info(
        { tenantId, provider: name, skipped: devices.data.length - rows.length },
        'locks-sync skipped devices another tenant holds',
      );
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'locks.synced',
      subject: { type: 'tenant' },
      metadata: { provider: name, devices: rows.length, imported },
    });
    const locks = await tx.lock.findMany({
      where: { tenantId, id: { in: rows.map((r) => r.lockId) } },
      select: lockSelect,
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
    return { imported, locks: locks.map(toLockView) };
  });
}

/** One door code as we hold it: whose key, its state on this lock. Never a PIN. */
export type LockCodeView = {
  keyId: string;
  kind: 'guest' | 'staff' | 'backup';
  keyStatus: 'pre_issued' | 'active' | 'revoked' | 'expired';
  roomLabel: string;
  reservationId: string;
  /** null once the guest's personal data was deleted (the page says so in the reader's language). */
  guestDisplay: string | null;
  validFrom: string;
  expiresAt: string;
  state: string;
  codeId: string | null;
  error: string | null;
};

/** The Locks page's view of one lock: its doors, health, and its codes by our records and by the provider's. */
export type LockDetailView = LockView & {
  rooms: { id: string; label: string; role: DoorRole }[];
  /** Why an offline lock is offline, when the provider said (`device_offline`, `gateway_offline`, `no_gateway`, `missing`). */
  offlineReason: string | null;
  lastEvent: string | null;
  lastEventAt: string | null;
  reconciledAt: string | null;
  reconcileError: string | null;
  ours: LockCodeView[];
  /** At the last reconciliation; null before the first. */
  theirs: { codeId: string; clientRef: string | null; state: string; ours: boolean }[] | null;
  incidents: { kind: string; severity: string; summary: string; openedAt: string }[];
};

/**
 * Every lock of the tenant with what the Locks page shows (staff read, RLS by tenant): the codes we
 * think each lock holds (live keys, and ended ones not yet confirmed removed) next to what the
 * provider said at the last reconciliation, and the lock's open incidents.
 */
export async function listLockDetails({ tenantId }: { tenantId: string }): Promise<LockDetailView[]> {
  return withTenant({ tenantId }, async (tx) => {
    const locks = await tx.lock.findMany({
      where: { tenantId },
      select: {
        ...lockSelect,
        lastEvent: true,
        lastEventAt: true,
        reconciledAt: true,
        reconcileError: true,
        providerCodes: true,
        offlineReason: true,
        rooms: { select: { roomId: true, role: true, room: { select: { label: true } } }, orderBy: { roomId: 'asc' } },
      },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
    const [codes] = await runInTransaction(tx, [
      statement<Omit<LockCodeView, 'validFrom' | 'expiresAt'> & { lockId: string; validFrom: Date; expiresAt: Date }>(`
      select c.lock_id as "lockId", k.id as "keyId", k.kind::text as kind, k.status::text as "keyStatus",
             r.room_label_snapshot as "roomLabel", r.id as "reservationId",
             g.name as "guestDisplay", k.valid_from as "validFrom", k.expires_at as "expiresAt",
             c.state::text as state, c.code_id as "codeId", c.error
        from key_lock_codes c
        join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
        join reservations r on r.tenant_id = k.tenant_id and r.id = k.reservation_id
        left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
       where c.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
         and ((k.status in ('pre_issued', 'active') and not c.detached)
              or c.state in ('removing', 'remove_failed', 'valid_until_end'))
       order by k.valid_from, k.id`),
    ]);
    const [incidents] = await runInTransaction(tx, [
      statement<{
        conditionKey: string;
        kind: string;
        severity: string;
        summary: string;
        openedAt: Date;
      }>(`select condition_key as "conditionKey", kind, severity, summary, opened_at as "openedAt" from incidents
       where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and resolved_at is null and condition_key like 'lock\\_%:%'
       order by opened_at`),
    ]);
    return locks.map((lock) => {
      const ours = codes
        .filter((c) => c.lockId === lock.id)
        .map(({ lockId: _lockId, validFrom, expiresAt, ...code }) => ({
          ...code,
          validFrom: validFrom.toISOString(),
          expiresAt: expiresAt.toISOString(),
        }));
      const known = new Set(ours.map((c) => c.keyId));
      const snapshot = lock.providerCodes as { codeId: string; clientRef: string | null; state: string }[] | null;
      return {
        ...toLockView(lock),
        rooms: lock.rooms.map((r) => ({ id: r.roomId, label: r.room.label, role: r.role })),
        offlineReason: lock.online === false ? lock.offlineReason : null,
        lastEvent: lock.lastEvent,
        lastEventAt: lock.lastEventAt?.toISOString() ?? null,
        reconciledAt: lock.reconciledAt?.toISOString() ?? null,
        reconcileError: lock.reconcileError,
        ours,
        theirs: snapshot?.map((c) => ({ ...c, ours: c.clientRef !== null && known.has(c.clientRef) })) ?? null,
        incidents: incidents
          .filter((i) => i.conditionKey.endsWith(`:${lock.id}`))
          .map(({ conditionKey: _key, openedAt, ...i }) => ({ ...i, openedAt: openedAt.toISOString() })),
      };
    });
  });
}
