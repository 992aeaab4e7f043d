import type { ReservationStatus } from '../db/generated/enums';
import { runInTransaction, sqlLiteral, statement, withTenant } from '../db/tx';

export type ReservationHit = {
  id: string;
  roomLabel: string;
  facilityName: string;
  guestName: string | null;
  externalRef: string | null;
  startsAt: Date;
  endsAt: Date;
  status: ReservationStatus;
  timeZone: string;
};

/** The longest search the desk accepts (longer input is cut, not refused). */
export const MAX_SEARCH_LENGTH = 100;

/** `text` for a LIKE pattern with `!` as the escape character: `%`, `_` and `!` match only themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

/**
 * A tenant's reservations whose guest name, room label or external reference contains `query`
 * (case-insensitive), or whose id starts with it; newest stay first. The query is a bound
 * parameter with LIKE's wildcards escaped, and RLS plus the explicit tenant filter keep every
 * other tenant's guests out.
 */
export async function searchReservations({
  tenantId,
  userId,
  query,
  limit = 50,
}: {
  tenantId: string;
  userId?: string;
  query: string;
  limit?: number;
}): Promise<ReservationHit[]> {
  const text = query.trim().slice(0, MAX_SEARCH_LENGTH);
  if (text === '') return [];
  const contains = `%${escapeLike(text)}%`;
  const prefix = `${escapeLike(text.toLowerCase())}%`;
  const [rows] = await withTenant({ tenantId, userId }, (tx) =>
    runInTransaction(tx, [
      statement<{
        id: string;
        room_label: string;
        facility_name: string;
        guest_name: string | null;
        external_ref: string | null;
        starts_at: Date;
        ends_at: Date;
        status: ReservationStatus;
        time_zone: string;
      }>(`
      select r.id::text as id, r.room_label_snapshot as room_label, f.name as facility_name, g.name as guest_name,
             r.external_ref, r.starts_at, r.ends_at, r.status::text as status, f.time_zone
        from reservations r
        join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
        join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
        left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
       where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
         and (g.name ilike ${sqlLiteral(contains, 'text')} escape '!'
              or r.room_label_snapshot ilike ${sqlLiteral(contains, 'text')} escape '!'
              or r.external_ref ilike ${sqlLiteral(contains, 'text')} escape '!'
              or r.id::text like ${sqlLiteral(prefix, 'text')} escape '!')
       order by r.starts_at desc, r.id
       limit ${sqlLiteral(Math.min(Math.max(1, limit), 200), 'int')}`),
    ]),
  );
  return rows.map((r) => ({
    id: r.id,
    roomLabel: r.room_label,
    facilityName: r.facility_name,
    guestName: r.guest_name,
    externalRef: r.external_ref,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    status: r.status,
    timeZone: r.time_zone,
  }));
}
