import { scopedQuery, sqlLiteral, withTenant } from '../db/tx';
import { decodeCursor, encodeCursor } from '../api/cursor';
import { AppError } from '../errors';
import type { ReservationStatus } from '../db/generated/enums';
import {
  RESERVATION_INCLUDE,
  toReservationView,
  type ReservationView,
  type ReservationViewSource,
} from './reservation-view';

type ListedRow = Omit<ReservationViewSource, 'guest' | 'guestLinks'> & {
  guestId: string | null;
  guestName: string | null;
  linkId: string | null;
};

/**
 * A tenant's reservations overlapping `[from, to)`, by start then id, one page at a time
 * (keyset cursor, so pages stay stable while rows are added). One round trip (`scopedQuery`, as the
 * tenant's staff); with `apiKeyId`, the same transaction refuses a key revoked meanwhile (401).
 */
export async function listReservations(input: {
  tenantId: string;
  apiKeyId?: string;
  from?: Date;
  to?: Date;
  roomId?: string;
  status?: ReservationStatus;
  limit: number;
  cursor?: string;
}): Promise<{ data: ReservationView[]; nextCursor: string | null }> {
  const { tenantId } = input;
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const where = [
    `r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}`,
    ...(input.roomId ? [`r.room_id = ${sqlLiteral(input.roomId, 'uuid')}`] : []),
    ...(input.status ? [`r.status = ${sqlLiteral(input.status, 'reservation_status')}`] : []),
    ...(input.to ? [`r.starts_at < ${sqlLiteral(input.to, 'timestamptz')}`] : []),
    ...(input.from ? [`r.ends_at > ${sqlLiteral(input.from, 'timestamptz')}`] : []),
    ...(after
      ? [`(r.starts_at, r.id) > (${sqlLiteral(after.at, 'timestamptz')}, ${sqlLiteral(after.id, 'uuid')})`]
      : []),
  ];
  // The live guest link only (a rotated one is never shown again), as RESERVATION_INCLUDE reads it.
  const [rows] = await scopedQuery<ListedRow>({ role: 'app_authenticated', tenantId, apiKeyId: input.apiKeyId }, [
    `select r.id, r.booking_group_id as "bookingGroupId", r.room_id as "roomId",
        r.room_label_snapshot as "roomLabelSnapshot", r.starts_at as "startsAt", r.ends_at as "endsAt", r.status,
        r.paid_at as "paidAt", r.refunded_at as "refundedAt", r.source, r.external_ref as "externalRef",
        g.id as "guestId", g.name as "guestName",
        (select l.id from guest_links l where l.tenant_id = r.tenant_id and l.reservation_id = r.id and l.ended_at is null
          order by l.created_at desc limit 1) as "linkId"
       from reservations r left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
      where ${where.join(' and ')}
      order by r.starts_at, r.id
      limit ${Number(input.limit) + 1}`,
  ]);
  const page = rows!.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map(({ guestId, guestName, linkId, ...row }) =>
      toReservationView({
        ...row,
        guest: guestId ? { id: guestId, name: guestName! } : null,
        guestLinks: linkId ? [{ id: linkId }] : [],
      }),
    ),
    nextCursor: rows!.length > input.limit && last ? encodeCursor(last.startsAt, last.id) : null,
  };
}

/** One reservation of a tenant; `not_found` for any other id. */
export async function getReservation({
  tenantId,
  reservationId,
}: {
  tenantId: string;
  reservationId: string;
}): Promise<ReservationView> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.reservation.findMany({ where: { tenantId, id: reservationId }, include: RESERVATION_INCLUDE }),
  );
  if (rows.length !== 1) throw new AppError('not_found', 'No such reservation.');
  return toReservationView(rows[0]!);
}
