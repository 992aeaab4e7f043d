import { runStatements, sqlLiteral, statement, withTenant } from '../db/tx';

/** A room type with its facility's currency and unit and the rooms of the type. */
export type RoomTypeDetail = {
  id: string;
  facilityId: string;
  facilityName: string;
  /** The facility's IANA time zone (how its times are shown). */
  timeZone: string;
  name: string;
  description: string;
  capacity: number;
  weekdayCents: number;
  weekendCents: number | null;
  holidayCents: number | null;
  currency: string;
  unit: 'night' | 'hour';
  archivedAt: Date | null;
  roomIds: string[];
  /** Its photos in the order shown (at most six). */
  photos: { id: string; alt: string }[];
};

/**
 * The room types of one tenant (of one facility with `facilityId`; one type with `roomTypeId`, another
 * tenant's giving none) by facility and name, each with its facility's currency and booking unit and
 * its rooms (archived rooms apart). Archived types only with `archived: true`. One round trip as the
 * tenant's staff; with `apiKeyId` the same transaction refuses a revoked key.
 */
export async function listRoomTypes(input: {
  tenantId: string;
  facilityId?: string;
  roomTypeId?: string;
  archived?: boolean;
  apiKeyId?: string;
}): Promise<RoomTypeDetail[]> {
  const { tenantId, facilityId, roomTypeId, archived, apiKeyId } = input;
  const tenant = sqlLiteral(tenantId, 'uuid');
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId, apiKeyId }, [
    statement<RoomTypeDetail>(
      `select t.id, t.facility_id as "facilityId", f.name as "facilityName", f.time_zone as "timeZone", t.name, t.description, t.capacity,
              t.weekday_cents as "weekdayCents", t.weekend_cents as "weekendCents", t.holiday_cents as "holidayCents",
              f.currency, f.booking_unit::text as unit, t.archived_at as "archivedAt",
              coalesce((select array_agg(r.id order by r.label, r.id) from rooms r
                         where r.tenant_id = t.tenant_id and r.room_type_id = t.id and r.archived_at is null),
                       '{}') as "roomIds",
              coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'alt', p.alt) order by p.position)
                          from room_type_photos p where p.tenant_id = t.tenant_id and p.room_type_id = t.id),
                       '[]') as photos
         from room_types t join facilities f on f.tenant_id = t.tenant_id and f.id = t.facility_id
        where t.tenant_id = ${tenant}
          ${facilityId ? `and t.facility_id = ${sqlLiteral(facilityId, 'uuid')}` : ''}
          ${roomTypeId ? `and t.id = ${sqlLiteral(roomTypeId, 'uuid')}` : ''}
          ${archived ? '' : 'and t.archived_at is null'}
        order by f.name, t.name, t.id`,
    ),
  ]);
  return rows!;
}

/** A room type as the API answers (API.md `GET /room-types`): `rateCents` is the weekday price. */
export function toRoomTypeView(type: RoomTypeDetail) {
  return {
    id: type.id,
    facilityId: type.facilityId,
    name: type.name,
    capacity: type.capacity,
    rateCents: type.weekdayCents,
    currency: type.currency,
    unit: type.unit,
    roomIds: type.roomIds,
  };
}

/** The tenant's facilities as the room type form offers them: the currency prices are typed in and the unit they are per. */
export async function listRoomTypeFacilities({ tenantId }: { tenantId: string }) {
  return withTenant({ tenantId }, (tx) =>
    tx.facility.findMany({
      where: { tenantId },
      select: { id: true, name: true, currency: true, bookingUnit: true },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    }),
  );
}

export type RoomTypeFacility = Awaited<ReturnType<typeof listRoomTypeFacilities>>[number];
