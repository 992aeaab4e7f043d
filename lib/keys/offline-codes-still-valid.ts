import { runStatements, sqlArray, sqlLiteral, type Statement } from '../db/tx';

export type OfflineCodeStillValid = {
  keyId: string;
  reservationId: string;
  issuedAt: Date;
  /** The key's end: until then its lock accepts the code, whatever we recorded. */
  until: Date;
  /** The locks it still opens, by name. */
  locks: string[];
  /** The facility's IANA zone. */
  timeZone: string;
};

type Input = { tenantId: string; reservationIds: string[]; now?: Date };

/**
 * The ended keys of a tenant's reservations whose offline code a lock still accepts (a door
 * `valid_until_end`, before the key's end): revoked here, not on the lock — for the desk's lists,
 * which then do not say a superseded code is gone. Never a PIN.
 */
export function offlineCodesStatement({
  tenantId,
  reservationIds,
  now = new Date(),
}: Input): Statement<OfflineCodeStillValid[]> {
  const tenant = sqlLiteral(tenantId, 'uuid');
  return {
    sql:
      reservationIds.length === 0
        ? null
        : `select k.id as "keyId", k.reservation_id as "reservationId", k.created_at as "issuedAt", k.expires_at as until,
                  array(select l.name
                          from key_lock_codes d
                          join locks l on l.tenant_id = d.tenant_id and l.id = d.lock_id
                         where d.tenant_id = k.tenant_id and d.key_id = k.id and d.state = 'valid_until_end'
                         order by d.lock_id) as locks,
                  f.time_zone as "timeZone"
             from access_keys k
             join rooms ro on ro.tenant_id = k.tenant_id and ro.id = k.room_id
             join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
            where k.tenant_id = ${tenant} and k.reservation_id = any(${sqlArray(reservationIds, 'uuid')})
              and k.status in ('revoked', 'expired') and k.expires_at > ${sqlLiteral(now, 'timestamptz')}
              and exists (select 1 from key_lock_codes d
                           where d.tenant_id = k.tenant_id and d.key_id = k.id and d.state = 'valid_until_end')
            order by k.created_at, k.id`,
    // Selected by reservation id: never a staff code's null reservation.
    rows: (rows) => rows as OfflineCodeStillValid[],
  };
}

/** `offlineCodesStatement` in one round trip, as the tenant's staff. */
export async function offlineCodesStillValid({
  userId,
  ...input
}: Input & { userId?: string | null }): Promise<OfflineCodeStillValid[]> {
  const [codes] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId, userId }, [
    offlineCodesStatement(input),
  ]);
  return codes;
}
