import { randomUUID } from 'node:crypto';
import type { Actor } from '../audit/actor';
import { GUEST_LINK_GRACE_MS, guestTokenFor, guestUrl, hashGuestToken } from '../auth/guest-links';
import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { writeAuditEvent } from '../audit/write-audit-event';

export const REISSUE_REASON_LINK_REPLACED = 'link_replaced';

/**
 * Gives a reservation a new guest link and ends the old one in the same transaction: the old link
 * answers 404 from the commit on (audited `guest_link.rotated`), and the PIN it showed stops too —
 * each live stay key is re-issued with a new PIN (`key.reissued`, reason `link_replaced`), which
 * only the new link shows. The reservation's row lock serialises rotations, and the partial unique
 * index keeps one live link per reservation.
 */
export async function rotateGuestLink({
  tenantId,
  reservationId,
  actor,
}: {
  tenantId: string;
  reservationId: string;
  actor: Actor;
}): Promise<{ guestUrl: string }> {
  const linkId = randomUUID();
  const token = guestTokenFor(linkId);
  return asService({ tenantId }, async (tx) => {
    const [reservations] = await runInTransaction(tx, [
      statement<{ status: string; ends_at: Date; room_id: string; guest_id: string | null }>(`
      select status, ends_at, room_id, guest_id from reservations where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and id = ${sqlLiteral(reservationId, 'uuid')} for update`),
    ]);
    if (reservations.length !== 1) throw new AppError('not_found', 'No such reservation.');
    const reservation = reservations[0]!;
    if (reservation.status === 'cancelled' || reservation.status === 'checked_out' || reservation.guest_id === null) {
      throw new AppError(
        'reservation_not_ready',
        'A cancelled or checked-out stay, or one whose guest was deleted, has no guest link.',
        { status: reservation.status },
      );
    }
    const [ended] = await runInTransaction(tx, [
      statement<{ id: string }>(`update guest_links set ended_at = now()
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and reservation_id = ${sqlLiteral(reservationId, 'uuid')}
        and ended_at is null returning id`),
    ]);
    await tx.guestLink.create({
      data: {
        id: linkId,
        tenantId,
        reservationId,
        tokenHash: hashGuestToken(token),
        expiresAt: new Date(reservation.ends_at.getTime() + GUEST_LINK_GRACE_MS),
      },
    });
    // The PIN the old link showed goes with it: each live stay key is re-issued with a new PIN.
    const [reissued] = await runInTransaction(tx, [
      statement<{ id: string }>(`
      select n.id from access_keys k
       cross join lateral reissue_key(k.tenant_id, k.id, ${sqlLiteral(REISSUE_REASON_LINK_REPLACED, 'text')},
         ${sqlLiteral(actor.type, 'actor_type')},
         ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')},
         ${sqlLiteral(REISSUE_REASON_LINK_REPLACED, 'text')}) n
       where k.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
         and k.reservation_id = ${sqlLiteral(reservationId, 'uuid')} and k.kind = 'guest'
         and k.status in ('pre_issued', 'active')`),
    ]);
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'guest_link.rotated',
      subject: { type: 'reservation', id: reservationId },
      roomId: reservation.room_id,
      metadata: { endedLinkIds: ended.map((l) => l.id), linkId, reissuedKeyIds: reissued.map((k) => k.id) },
    });
    return { guestUrl: guestUrl(token) };
  });
}
