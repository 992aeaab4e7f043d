import { reservationTimeline } from '../audit/reservation-timeline';
import type { Role } from '../auth/permissions';
import { deskSyncState } from './desk-sync-state';
import { reservationDetail } from './reservation-detail';
import { checkInLockProblems } from '../locks/check-in-lock-problems';
import { checkInWindows } from '../stays/check-in-windows';
import { stayAllows } from '../stays/stay-allows';
import { freeRoomsForMove } from '../stays/stay-options';

/**
 * Everything the desk's reservation page shows, in one read: the reservation (`reservationDetail`),
 * what `role` may do on it now (`stayAllows`), and what those actions need — the check-in window and
 * lock problems when check-in is offered, the free rooms when a move is, the timeline and the live
 * refresh's first state. Null when the tenant has no such reservation.
 */
export async function reservationView({
  tenantId,
  userId,
  role,
  reservationId,
  now = new Date(),
}: {
  tenantId: string;
  userId?: string;
  role: Role;
  reservationId: string;
  now?: Date;
}) {
  const reservation = await reservationDetail({ tenantId, userId, reservationId, now });
  if (!reservation) return null;
  const allows = stayAllows({ role, reservation, now });
  const ids = { tenantId, userId, reservationId: reservation.id };
  const [checkInWindow, checkInProblems, freeRooms, timeline, sync] = await Promise.all([
    allows.checkIn
      ? checkInWindows({ tenantId, userId, reservationIds: [reservation.id] }).then((w) => w.get(reservation.id))
      : undefined,
    allows.checkIn ? checkInLockProblems(ids) : [],
    allows.stay.move ? freeRoomsForMove(ids) : [],
    reservationTimeline({ tenantId, reservationId: reservation.id }),
    deskSyncState({ tenantId, userId, reservationIds: [reservation.id] }),
  ]);
  return { reservation, allows, checkInWindow, checkInProblems, freeRooms, timeline, sync };
}

export type ReservationView = NonNullable<Awaited<ReturnType<typeof reservationView>>>;
