import { runInTransaction, sqlLiteral, statement, withTenant } from '../db/tx';
import { AppError } from '../errors';
import { MESSAGE_COLUMNS, type MessageRecord } from './message-view';

/** The messages of one of the tenant's reservations, newest first; `not_found` for another tenant's. */
export async function listReservationMessages({
  tenantId,
  userId,
  reservationId,
}: {
  tenantId: string;
  userId?: string | null;
  reservationId: string;
}): Promise<MessageRecord[]> {
  return withTenant({ tenantId, userId }, async (tx) => {
    const found = await tx.reservation.findMany({ where: { tenantId, id: reservationId }, select: { id: true } });
    if (found.length !== 1) throw new AppError('not_found', 'No such reservation.');
    const [rows] = await runInTransaction(tx, [
      statement<MessageRecord>(`select ${MESSAGE_COLUMNS} from messages m
      left join reservations r on r.tenant_id = m.tenant_id and r.id = m.reservation_id
      where m.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and m.reservation_id = ${sqlLiteral(reservationId, 'uuid')}
      order by m.created_at desc, m.id`),
    ]);
    return rows;
  });
}

/** The tenant's latest messages (guest mail and manager alerts), optionally only those that failed. */
export async function listTenantMessages({
  tenantId,
  userId,
  failedOnly = false,
  limit = 100,
}: {
  tenantId: string;
  userId?: string | null;
  failedOnly?: boolean;
  limit?: number;
}): Promise<MessageRecord[]> {
  const [rows] = await withTenant({ tenantId, userId }, (tx) =>
    runInTransaction(tx, [
      statement<MessageRecord>(`select ${MESSAGE_COLUMNS} from messages m
      left join reservations r on r.tenant_id = m.tenant_id and r.id = m.reservation_id
      where m.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and (not ${sqlLiteral(failedOnly, 'boolean')}
        or m.status = 'failed')
      order by m.created_at desc, m.id limit ${sqlLiteral(Math.min(Math.max(limit, 1), 500), 'int')}`),
    ]),
  );
  return rows;
}
