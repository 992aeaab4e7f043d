import type { Actor } from '../audit/actor';
import { asService, runInTransaction, sqlLiteral, statement, type Tx, withTenant } from '../db/tx';
import { AppError } from '../errors';
import { writeAuditEvent } from '../audit/write-audit-event';

export type FutureStay = { id: string; startsAt: Date; endsAt: Date; status: string; guestDisplay: string };

// Stays that still hold the room: not cancelled or checked out, and not over.
async function futureStays(tx: Tx, tenantId: string, roomId: string): Promise<FutureStay[]> {
  const rows = await tx.reservation.findMany({
    where: { tenantId, roomId, status: { notIn: ['cancelled', 'checked_out'] }, endsAt: { gt: new Date() } },
    select: { id: true, startsAt: true, endsAt: true, status: true, guest: { select: { name: true } } },
    orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
    take: 50,
  });
  return rows.map(({ guest, ...r }) => ({ ...r, guestDisplay: guest?.name ?? 'Deleted account' }));
}

/** The stays that keep a room from being archived (the page lists them before the button). */
export async function futureStaysOfRoom(input: { tenantId: string; roomId: string }): Promise<FutureStay[]> {
  return withTenant({ tenantId: input.tenantId }, (tx) => futureStays(tx, input.tenantId, input.roomId));
}

/**
 * Archives a room: it takes no new stays from then on (the database refuses them, UR005), its
 * history, doors and keys stay. A room that still has stays to come is refused (`conflict`, with
 * those stays): they are moved or cancelled first, so no guest arrives at an archived room. The
 * room's row is locked first, so a booking made meanwhile is either seen here or refused there.
 * Archiving an archived room changes nothing and writes no audit row.
 */
export async function archiveRoom(input: {
  tenantId: string;
  roomId: string;
  actor: Actor;
}): Promise<{ id: string; archived: boolean }> {
  return setArchived({ ...input, archive: true });
}

/** Restores an archived room: it takes bookings again (`room.restored`). Restoring a live room changes nothing. */
export async function restoreRoom(input: {
  tenantId: string;
  roomId: string;
  actor: Actor;
}): Promise<{ id: string; archived: boolean }> {
  return setArchived({ ...input, archive: false });
}

async function setArchived(input: { tenantId: string; roomId: string; actor: Actor; archive: boolean }) {
  const { tenantId, roomId, actor, archive } = input;
  return asService({ tenantId }, async (tx) => {
    const [rows] = await runInTransaction(tx, [
      statement<{ label: string; archived_at: Date | null }>(`
      select label, archived_at from rooms where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and id = ${sqlLiteral(roomId, 'uuid')} for update`),
    ]);
    if (rows.length !== 1) throw new AppError('not_found', 'No such room.');
    const { label, archived_at: archivedAt } = rows[0]!;
    if ((archivedAt !== null) === archive) return { id: roomId, archived: archive };
    if (archive) {
      const stays = await futureStays(tx, tenantId, roomId);
      if (stays.length > 0)
        throw new AppError('conflict', 'This room still has stays to come; move or cancel them first.', {
          reservationIds: stays.map((s) => s.id),
        });
    }
    await tx.room.update({
      where: { tenantId_id: { tenantId, id: roomId } },
      data: { archivedAt: archive ? new Date() : null },
    });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: archive ? 'room.archived' : 'room.restored',
      subject: { type: 'room', id: roomId },
      roomId,
      metadata: { label },
    });
    return { id: roomId, archived: archive };
  });
}
