import { actorColumns, type Actor } from '../audit/actor';
import { asService, withTenant, type Tx } from '../db/tx';
import type { DoorRole, LockProvider as LockProviderName } from '../db/generated/enums';
import { AppError } from '../errors';
import { logger } from '../log/logger';
import { enqueueProgram } from './lock-events';
import type { ProviderDevice } from './provider';
import { lockProviderFor, tenantProviderName } from './tenant-provider';

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
  const { tenantId, provider, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const updated = await tx.tenant.updateMany({ where: { id: tenantId }, data: { lockProvider: provider } });
    if (updated.count === 0) throw new AppError('not_found', 'Unknown tenant.');
    await tx.auditEvent.create({
      data: {
        tenantId,
        ...actorColumns(actor),
        action: 'lock_provider.set',
        subjectType: 'tenant',
        metadata: { provider },
      },
    });
    return { provider };
  });
}

/** The lock for a device of a provider, created on first sight (a device id is unique per tenant and provider). */
export async function ensureLock(
  tx: Tx,
  input: { tenantId: string; provider: LockProviderName; deviceId: string; name?: string },
): Promise<{ id: string }> {
  return tx.lock.upsert({
    where: {
      tenantId_provider_deviceId: { tenantId: input.tenantId, provider: input.provider, deviceId: input.deviceId },
    },
    create: {
      tenantId: input.tenantId,
      provider: input.provider,
      deviceId: input.deviceId,
      name: input.name ?? input.deviceId,
    },
    update: {},
    select: { id: true },
  });
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
    const created = await tx.$executeRaw`insert into room_locks (tenant_id, room_id, lock_id, role)
      values (${tenantId}::uuid, ${roomId}::uuid, ${lockId}::uuid, ${input.role ?? 'room'}::door_role)
      on conflict do nothing`;
    if (created === 0) return { roomId, lockId };
    const keys = await tx.$queryRaw<{ id: string }[]>`
      insert into key_lock_codes (tenant_id, key_id, lock_id)
      select k.tenant_id, k.id, ${lockId}::uuid from access_keys k
       where k.tenant_id = ${tenantId}::uuid and k.room_id = ${roomId}::uuid and k.status in ('pre_issued', 'active')
         and k.kind <> 'backup'
         and not exists (select 1 from key_lock_codes c join access_keys o on o.tenant_id = c.tenant_id and o.id = c.key_id
                          where c.tenant_id = k.tenant_id and c.lock_id = ${lockId}::uuid and o.pin = k.pin
                            and c.state not in ('removed', 'failed'))
      on conflict do nothing
      returning key_id as id`;
    for (const key of keys) await enqueueProgram(tx, tenantId, key.id);
    await tx.auditEvent.create({
      data: {
        tenantId,
        ...actorColumns(actor),
        action: 'room.lock_added',
        subjectType: 'room',
        subjectId: roomId,
        roomId,
        metadata: { lockId, role: input.role ?? 'room', liveKeysSent: keys.length },
      },
    });
    return { roomId, lockId };
  });
}

/**
 * Reads the provider's devices into the tenant's locks: new devices are added, known ones get their
 * name, state and capabilities refreshed. Repeatable: a device is one lock however often it is read.
 */
export async function syncLocks(input: {
  tenantId: string;
  actor: Actor;
  correlationId?: string;
}): Promise<{ imported: number; locks: LockView[] }> {
  const { tenantId, actor } = input;
  const name = await tenantProviderName(tenantId);
  const provider = await lockProviderFor(tenantId, name);
  if (!provider.ok)
    throw new AppError('unavailable', `The lock provider is not set up (${provider.code}).`, {
      providerCode: provider.code,
    });
  const devices = await provider.data.listDevices({ correlationId: input.correlationId ?? `locks-sync:${tenantId}` });
  if (!devices.ok) {
    logger.warn({ tenantId, provider: name, vendorCode: devices.code }, 'locks-sync could not list devices');
    throw new AppError('unavailable', `The lock provider did not list its devices (${devices.code}).`, {
      providerCode: devices.code,
    });
  }
  return asService({ tenantId }, async (tx) => {
    let imported = 0;
    for (const device of devices.data) {
      if (await upsertDevice(tx, tenantId, name, device)) imported += 1;
    }
    await tx.auditEvent.create({
      data: {
        tenantId,
        ...actorColumns(actor),
        action: 'locks.synced',
        subjectType: 'tenant',
        metadata: { provider: name, devices: devices.data.length, imported },
      },
    });
    const rows = await tx.lock.findMany({
      where: { tenantId, provider: name, deviceId: { in: devices.data.map((d) => d.deviceId) } },
      select: lockSelect,
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
    return { imported, locks: rows.map(toLockView) };
  });
}

/** Inserts or refreshes one device; true when it was new. */
async function upsertDevice(tx: Tx, tenantId: string, provider: LockProviderName, device: ProviderDevice) {
  const rows = await tx.$queryRaw<{ inserted: boolean }[]>`
    insert into locks (tenant_id, provider, device_id, name, online, battery_level, can_program_online,
                       can_program_offline, supports_backup_codes, last_seen_at, synced_at)
    values (${tenantId}::uuid, ${provider}::lock_provider, ${device.deviceId}, ${device.name}, ${device.online},
            ${device.batteryLevel}, ${device.canProgramOnline}, ${device.canProgramOffline}, ${device.supportsBackupCodes},
            case when ${device.online} then now() end, now())
    on conflict (tenant_id, provider, device_id) do update set
      name = excluded.name, online = excluded.online, battery_level = excluded.battery_level,
      can_program_online = excluded.can_program_online, can_program_offline = excluded.can_program_offline,
      supports_backup_codes = excluded.supports_backup_codes,
      last_seen_at = coalesce(excluded.last_seen_at, locks.last_seen_at), synced_at = now(), updated_at = now()
    returning (xmax = 0) as inserted`;
  return rows[0]?.inserted ?? false;
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
        rooms: { select: { roomId: true, role: true, room: { select: { label: true } } }, orderBy: { roomId: 'asc' } },
      },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    });
    const codes = await tx.$queryRaw<
      (Omit<LockCodeView, 'validFrom' | 'expiresAt'> & { lockId: string; validFrom: Date; expiresAt: Date })[]
    >`
      select c.lock_id as "lockId", k.id as "keyId", k.kind::text as kind, k.status::text as "keyStatus",
             r.room_label_snapshot as "roomLabel", r.id as "reservationId",
             g.name as "guestDisplay", k.valid_from as "validFrom", k.expires_at as "expiresAt",
             c.state::text as state, c.code_id as "codeId", c.error
        from key_lock_codes c
        join access_keys k on k.tenant_id = c.tenant_id and k.id = c.key_id
        join reservations r on r.tenant_id = k.tenant_id and r.id = k.reservation_id
        left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
       where c.tenant_id = ${tenantId}::uuid
         and (k.status in ('pre_issued', 'active') or c.state in ('removing', 'remove_failed', 'valid_until_end'))
       order by k.valid_from, k.id`;
    const incidents = await tx.$queryRaw<
      { conditionKey: string; kind: string; severity: string; summary: string; openedAt: Date }[]
    >`select condition_key as "conditionKey", kind, severity, summary, opened_at as "openedAt" from incidents
       where tenant_id = ${tenantId}::uuid and resolved_at is null and condition_key like 'lock\\_%:%'
       order by opened_at`;
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
