import { runStatements, sqlLiteral, statement } from '../db/tx';

/**
 * A stay from the booking site that holds its room unpaid (issue 43.4): held for its online payment, or confirmed to
 * be paid at the property with nothing paid yet, and not over. `fromOneMailbox` and `fromOneAddress` count the live
 * unpaid holds of the same facility made from its mailbox and from its client address (itself included), so the
 * desk sees one person holding several rooms.
 */
export type UnpaidHold = {
  reservationId: string;
  roomLabel: string;
  guestDisplay: string;
  startsAt: Date;
  endsAt: Date;
  status: 'held' | 'confirmed';
  holdExpiresAt: Date | null;
  bookedAt: Date;
  fromOneMailbox: number;
  fromOneAddress: number;
};

/** The live unpaid holds of a tenant's booking sites, soonest arrival first (at most 200). */
export async function listUnpaidHolds(input: { tenantId: string }): Promise<UnpaidHold[]> {
  const t = sqlLiteral(input.tenantId, 'uuid');
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId }, [
    statement<UnpaidHold>(`
      with live as (
        select r.id, r.room_label_snapshot, r.starts_at, r.ends_at, r.status, r.created_at, g.name as guest_name,
               b.hold_expires_at, q.facility_id, q.mailbox_key, q.hold_address_key
          from booking_requests q
          join reservations r on r.tenant_id = q.tenant_id and r.id = q.reservation_id
          join booking_groups b on b.tenant_id = r.tenant_id and b.id = r.booking_group_id
          left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
         where q.tenant_id = ${t} and q.status = 'confirmed' and r.ends_at > now()
           and (r.status = 'held' or (r.status = 'confirmed' and r.paid_at is null))
      )
      select l.id as "reservationId", l.room_label_snapshot as "roomLabel",
             coalesce(l.guest_name, 'Deleted account') as "guestDisplay", l.starts_at as "startsAt",
             l.ends_at as "endsAt", l.status::text as status,
             case when l.status = 'held' then l.hold_expires_at end as "holdExpiresAt", l.created_at as "bookedAt",
             (select count(*)::int from live o where o.facility_id = l.facility_id and o.mailbox_key = l.mailbox_key)
               as "fromOneMailbox",
             (select count(*)::int from live o where o.facility_id = l.facility_id
                 and o.hold_address_key = l.hold_address_key) as "fromOneAddress"
        from live l
       order by l.starts_at, l.id
       limit 200`),
  ]);
  return rows.map((row) => ({
    ...row,
    startsAt: new Date(row.startsAt),
    endsAt: new Date(row.endsAt),
    bookedAt: new Date(row.bookedAt),
    holdExpiresAt: row.holdExpiresAt && new Date(row.holdExpiresAt),
    fromOneMailbox: Math.max(1, Number(row.fromOneMailbox)),
    fromOneAddress: Math.max(1, Number(row.fromOneAddress)),
  }));
}
