import type { DoorRole, LockProvider, ReservationStatus } from '../db/generated/enums';
import { runStatements, sqlArray, sqlLiteral, statement, type Statement } from '../db/tx';
import { canUnlockRemotely } from '../locks/remote-unlock-capability';

/** One door of a room as the desk shows it: the lock, whether it answers, and whether the desk can open it. */
export type DoorView = {
  roomId: string;
  lockId: string;
  name: string;
  role: DoorRole;
  provider: LockProvider;
  online: boolean | null;
  /** Why it is not online, by its provider (device_offline, gateway_offline, no_gateway, missing). */
  offlineReason: string | null;
  batteryLevel: number | null;
  /** Whether its provider opens it on request ("Open door" is offered only then). */
  canUnlockRemotely: boolean;
};

type DoorRow = Omit<DoorView, 'canUnlockRemotely'> & { deviceId: string };

/** The doors of `roomIds` (the tenant's only), by room: its own door first, then by name. */
export function roomDoorsStatement({
  tenantId,
  roomIds,
}: {
  tenantId: string;
  roomIds: string[];
}): Statement<Map<string, DoorView[]>> {
  const ids = [...new Set(roomIds)];
  const tenant = sqlLiteral(tenantId, 'uuid');
  return {
    sql:
      ids.length === 0
        ? null
        : `select d.room_id as "roomId", l.id as "lockId", l.name, d.role::text as role, l.provider::text as provider,
                  l.online, l.offline_reason as "offlineReason", l.battery_level as "batteryLevel",
                  l.device_id as "deviceId"
             from room_locks d
             join locks l on l.tenant_id = d.tenant_id and l.id = d.lock_id
            where d.tenant_id = ${tenant} and d.room_id = any(${sqlArray(ids, 'uuid')})
            order by d.room_id, (d.role <> 'room'), l.name, l.id`,
    rows: (rows) => {
      const byRoom = new Map<string, DoorView[]>();
      for (const { deviceId, ...row } of rows as DoorRow[]) {
        const door: DoorView = {
          ...row,
          batteryLevel: row.batteryLevel === null ? null : Number(row.batteryLevel),
          canUnlockRemotely: canUnlockRemotely({ ...row, deviceId }),
        };
        byRoom.set(row.roomId, [...(byRoom.get(row.roomId) ?? []), door]);
      }
      return byRoom;
    },
  };
}

/** `roomDoorsStatement` in one round trip, as the tenant's staff. */
export async function roomDoors(input: {
  tenantId: string;
  userId?: string;
  roomIds: string[];
}): Promise<Map<string, DoorView[]>> {
  const [doors] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId, userId: input.userId }, [
    roomDoorsStatement(input),
  ]);
  return doors;
}

/** A stay of the room shown on its page: who, when, whether the guest has opened the door yet. */
export type RoomStay = {
  id: string;
  guestName: string | null;
  startsAt: Date;
  endsAt: Date;
  status: ReservationStatus;
  arrivedAt: Date | null;
};

export type DeskRoom = {
  room: { id: string; label: string; facilityName: string; timeZone: string; archived: boolean };
  doors: DoorView[];
  /** The stays holding the room now or within the next day, and any still checked in, by start. */
  stays: RoomStay[];
};

/**
 * One room of the tenant as the desk's room page shows it, in one round trip as the tenant's staff: the room and
 * its facility's zone, its doors (`roomDoorsStatement`), and its stays now and within a day. Null for a room of
 * another tenant or none.
 */
export async function deskRoom({
  tenantId,
  userId,
  roomId,
  now = new Date(),
}: {
  tenantId: string;
  userId?: string;
  roomId: string;
  now?: Date;
}): Promise<DeskRoom | null> {
  const tenant = sqlLiteral(tenantId, 'uuid');
  const room = sqlLiteral(roomId, 'uuid');
  const [rooms, doors, stays] = await runStatements({ role: 'app_authenticated', tenantId, userId }, [
    statement<DeskRoom['room']>(
      `select ro.id, ro.label, f.name as "facilityName", f.time_zone as "timeZone", ro.archived_at is not null as archived
         from rooms ro join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
        where ro.tenant_id = ${tenant} and ro.id = ${room}`,
    ),
    roomDoorsStatement({ tenantId, roomIds: [roomId] }),
    statement<RoomStay>(
      `select r.id, (select g.name from guests g where g.tenant_id = r.tenant_id and g.id = r.guest_id) as "guestName",
              r.starts_at as "startsAt", r.ends_at as "endsAt", r.status::text as status, r.arrived_at as "arrivedAt"
         from reservations r
        where r.tenant_id = ${tenant} and r.room_id = ${room}
          and (r.status = 'checked_in'
               or (r.status in ('held', 'confirmed') and r.ends_at > ${sqlLiteral(now, 'timestamptz')}
                   and r.starts_at < ${sqlLiteral(new Date(now.getTime() + 86_400_000), 'timestamptz')}))
        order by r.starts_at, r.id`,
    ),
  ]);
  if (rooms.length !== 1) return null;
  return { room: rooms[0]!, doors: doors.get(roomId) ?? [], stays };
}
