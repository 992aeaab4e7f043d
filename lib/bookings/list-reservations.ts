import { runStatements, statement, sqlLiteral } from '../db/tx';
import { decodeCursor, encodeCursor } from '../paging/cursor';
import { AppError } from '../errors';
import type { ReservationStatus } from '../db/generated/enums';
import {
  fromReservationViewRow,
  reservationViewsSql,
  type ReservationView,
  type ReservationViewRow,
} from './reservation-view';

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
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId, apiKeyId: input.apiKeyId }, [
    statement<ReservationViewRow>(
      reservationViewsSql(where, `order by r.starts_at, r.id limit ${Number(input.limit) + 1}`),
    ),
  ]);
  const page = rows!.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map(fromReservationViewRow),
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
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId }, [
    statement<ReservationViewRow>(
      reservationViewsSql([
        `r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}`,
        `r.id = ${sqlLiteral(reservationId, 'uuid')}`,
      ]),
    ),
  ]);
  if (rows!.length !== 1) throw new AppError('not_found', 'No such reservation.');
  return fromReservationViewRow(rows![0]!);
}
