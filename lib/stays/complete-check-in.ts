import { actorColumns, type Actor } from '../audit/actor';
import { asService } from '../db/tx';
import { AppError } from '../errors';
import { toKeyView, type AccessKeyRow, type KeyView } from '../keys/key-view';

export const SUPERSEDED_BY_CHECKIN = 'superseded_by_checkin';

export type CheckInResult = { checkInId: string; key: KeyView; revokedKeyIds: string[] };

export const EARLY_CHECK_IN = 'early_check_in';

/**
 * The check-in hand-off, in one transaction: create the check-in, revoke every pre-issued key of
 * the reservation (reason `superseded_by_checkin`, an audit row each), issue the stay key.
 * Repeating it returns the same check-in, the same key and the same revoked keys.
 * Before the stay's start minus the facility's early check-in minutes it is `too_early` (with
 * `opensAt`) unless `early` — then it is audited as an early check-in, and refused while another
 * stay of the room overlaps the hours before the start (the trigger check_ins_guard_window).
 */
export async function completeCheckIn({
  tenantId,
  reservationId,
  actor,
  early = false,
}: {
  tenantId: string;
  reservationId: string;
  actor: Actor;
  early?: boolean;
}): Promise<CheckInResult> {
  return asService({ tenantId }, async (tx) => {
    // The row lock serializes concurrent check-ins of one reservation (and a guest's deletion); the
    // check-in, if there is one, comes in the same round trip (read under that lock).
    const reservations = await tx.$queryRaw<
      {
        id: string;
        status: string;
        ends_at: Date;
        room_id: string;
        guest_id: string | null;
        opens_at: Date;
        check_in_ids: string[];
      }[]
    >`
      select r.id, r.status, r.ends_at, r.room_id, r.guest_id, app_check_in_opens_at(r.tenant_id, r.id) as opens_at,
             array(select c.id from check_ins c where c.tenant_id = r.tenant_id and c.reservation_id = r.id) as check_in_ids
        from reservations r where r.tenant_id = ${tenantId}::uuid and r.id = ${reservationId}::uuid for update of r`;
    if (reservations.length !== 1) throw new AppError('not_found', 'No such reservation.');
    const reservation = reservations[0]!;

    let checkIns = reservation.check_in_ids.map((id) => ({ id }));
    if (checkIns.length === 0) {
      if (!['held', 'confirmed'].includes(reservation.status) || reservation.ends_at <= new Date()) {
        throw new AppError('reservation_not_ready', `A ${reservation.status} reservation cannot be checked in.`, {
          status: reservation.status,
        });
      }
      if (reservation.guest_id === null) {
        throw new AppError(
          'reservation_not_ready',
          'The guest of this reservation was deleted; it cannot be checked in.',
          { status: reservation.status },
        );
      }
      const isEarly = reservation.opens_at > new Date();
      if (isEarly && !early) {
        throw new AppError('too_early', 'Check-in for this stay has not opened yet.', {
          opensAt: reservation.opens_at.toISOString(),
        });
      }
      const created = await tx.checkIn.create({
        data: { tenantId, reservationId, completedByUserId: actor.type === 'user' ? actor.id : null, early: isEarly },
        select: { id: true },
      });
      checkIns = [created];
      await tx.reservation.update({
        where: { tenantId_id: { tenantId, id: reservationId } },
        data: { status: 'checked_in' },
      });
      // Every pre-issued key of the reservation, revoked as it is read: one statement, whatever their number.
      const preIssued = await tx.$queryRaw<{ id: string }[]>`
        select k.id, (app_end_key(k.tenant_id, k.id, 'revoked', ${SUPERSEDED_BY_CHECKIN},
                                  ${actor.type}::actor_type, ${actor.id}, ${actor.label})).id as ended
          from access_keys k
         where k.tenant_id = ${tenantId}::uuid and k.reservation_id = ${reservationId}::uuid and k.status = 'pre_issued'`;
      await tx.auditEvent.create({
        data: {
          tenantId,
          ...actorColumns(actor),
          action: 'checkin.completed',
          subjectType: 'reservation',
          subjectId: reservationId,
          roomId: reservation.room_id,
          reason: isEarly ? EARLY_CHECK_IN : null,
          metadata: {
            checkInId: created.id,
            revokedKeyIds: preIssued.map((k) => k.id),
            ...(isEarly ? { early: true, opensAt: reservation.opens_at.toISOString() } : {}),
          },
        },
      });
    }
    const checkInId = checkIns[0]!.id;
    const keys = await tx.$queryRaw<
      AccessKeyRow[]
    >`select * from issue_checkin_key(${tenantId}::uuid, ${checkInId}::uuid,
      ${actor.type}::actor_type, ${actor.id}, ${actor.label})`;
    const revoked = await tx.accessKey.findMany({
      where: { tenantId, reservationId, status: 'revoked', revokedReason: SUPERSEDED_BY_CHECKIN },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
    });
    return { checkInId, key: toKeyView(keys[0]!), revokedKeyIds: revoked.map((k) => k.id) };
  });
}
