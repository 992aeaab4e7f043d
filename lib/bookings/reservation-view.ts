import { guestTokenFor, guestUrl } from '../auth/guest-links';
import { sqlArray, sqlLiteral, type Statement } from '../db/tx';

/** What a deleted guest reads as, wherever a guest is shown. */
export const DELETED_GUEST_DISPLAY = 'Deleted account';

export type ReservationView = {
  id: string;
  bookingGroupId: string | null;
  roomId: string;
  roomLabel: string;
  startsAt: string;
  endsAt: string;
  status: string;
  paid: boolean;
  source: string;
  externalRef: string | null;
  guest: { id: string; name: string } | null;
  guestDisplay: string;
  guestUrl: string | null;
};

/** What a reservation view is made of: the reservation's fields, its guest and its live guest link. */
export type ReservationViewSource = {
  id: string;
  bookingGroupId: string | null;
  roomId: string;
  roomLabelSnapshot: string;
  startsAt: Date;
  endsAt: Date;
  status: string;
  paidAt: Date | null;
  refundedAt: Date | null;
  source: string;
  externalRef: string | null;
  guest: { id: string; name: string } | null;
  guestLinks: { id: string }[];
};

/** The `reservation` of API.md. */
export function toReservationView(row: ReservationViewSource): ReservationView {
  const link = row.guestLinks[0];
  return {
    id: row.id,
    bookingGroupId: row.bookingGroupId,
    roomId: row.roomId,
    roomLabel: row.roomLabelSnapshot,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: row.status,
    paid: row.paidAt !== null && row.refundedAt === null,
    source: row.source,
    externalRef: row.externalRef,
    guest: row.guest ? { id: row.guest.id, name: row.guest.name } : null,
    guestDisplay: row.guest ? row.guest.name : DELETED_GUEST_DISPLAY,
    guestUrl: link ? guestUrl(guestTokenFor(link.id)) : null,
  };
}

/** A row of `reservationViewsSql`: the view's fields from SQL, the guest and live link flat. */
export type ReservationViewRow = Omit<ReservationViewSource, 'guest' | 'guestLinks'> & {
  guestId: string | null;
  guestName: string | null;
  linkId: string | null;
};

/**
 * The reservations (`r`) that `where` picks, as one statement of `ReservationViewRow`s, with the live
 * guest link only (a rotated one is never shown again), the newest if several. `where` holds
 * the tenant's condition; values in it as typed literals.
 */
export function reservationViewsSql(where: string[], tail = ''): string {
  return `select r.id, r.booking_group_id as "bookingGroupId", r.room_id as "roomId",
        r.room_label_snapshot as "roomLabelSnapshot", r.starts_at as "startsAt", r.ends_at as "endsAt", r.status,
        r.paid_at as "paidAt", r.refunded_at as "refundedAt", r.source, r.external_ref as "externalRef",
        g.id as "guestId", g.name as "guestName",
        (select l.id from guest_links l where l.tenant_id = r.tenant_id and l.reservation_id = r.id and l.ended_at is null
          order by l.created_at desc limit 1) as "linkId"
       from reservations r left join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
      where ${where.join(' and ')} ${tail}`;
}

export function fromReservationViewRow({ guestId, guestName, linkId, ...row }: ReservationViewRow): ReservationView {
  return toReservationView({
    ...row,
    guest: guestId ? { id: guestId, name: guestName! } : null,
    guestLinks: linkId ? [{ id: linkId }] : [],
  });
}

/** `reservationViewsSql` as a statement whose rows are `ReservationViewRow`s (`pg` reads the timestamps as dates). */
export function reservationViewsStatement(where: string[], tail = ''): Statement<ReservationViewRow[]> {
  return { sql: reservationViewsSql(where, tail), rows: (rows) => rows as ReservationViewRow[] };
}

/** Reservations of one tenant by id, as views in the order given (missing ids are left out): one statement. */
export function reservationViewsByIdStatement(tenantId: string, ids: string[]): Statement<ReservationView[]> {
  const read = reservationViewsStatement([
    `r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}`,
    `r.id = any(${sqlArray(ids, 'uuid')})`,
  ]);
  return {
    sql: ids.length === 0 ? null : read.sql,
    rows: (rows) => {
      const byId = new Map(read.rows(rows).map((row) => [row.id, row]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [fromReservationViewRow(row)] : [];
      });
    },
  };
}

export type GroupStatus = 'unpaid' | 'paid' | 'refunded' | 'cancelled';

/** A booking group's payment state from its reservations. */
export function groupStatus(
  reservations: { status: string; paidAt: Date | null; refundedAt: Date | null }[],
): GroupStatus {
  if (reservations.length > 0 && reservations.every((r) => r.status === 'cancelled')) return 'cancelled';
  if (reservations.some((r) => r.refundedAt !== null)) return 'refunded';
  if (reservations.length > 0 && reservations.every((r) => r.paidAt !== null)) return 'paid';
  return 'unpaid';
}
