import type { ReadableAuditEvent } from '../audit/readable-audit-events';
import { REMOTE_UNLOCK_ACTION, reservationTimeline } from '../audit/reservation-timeline';
import type { Role } from '../auth/permissions';
import { deskSyncState } from './desk-sync-state';
import { stayDoorEntries, type EntryView } from './door-record';
import { roomDoors } from './room-doors';
import { reservationDetail } from './reservation-detail';
import { checkInLockProblems } from '../locks/check-in-lock-problems';
import { checkInWindows } from '../stays/check-in-windows';
import { stayAllows } from '../stays/stay-allows';
import { freeRoomsForMove } from '../stays/stay-options';

/**
 * Everything the desk's reservation page shows, in one read: the reservation (`reservationDetail`),
 * what `role` may do on it now (`stayAllows`), and what those actions need — the check-in window and
 * lock problems when check-in is offered, the free rooms when a move is, the timeline (its audit rows
 * and its door openings, in time order), the room's doors and the live refresh's first state. Null when the tenant has
 * no such reservation.
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
  const [checkInWindow, checkInProblems, freeRooms, timeline, entries, doors, sync] = await Promise.all([
    allows.checkIn
      ? checkInWindows({ tenantId, userId, reservationIds: [reservation.id] }).then((w) => w.get(reservation.id))
      : undefined,
    allows.checkIn ? checkInLockProblems(ids) : [],
    allows.stay.move ? freeRoomsForMove(ids) : [],
    reservationTimeline({ tenantId, reservationId: reservation.id }),
    stayDoorEntries(ids),
    roomDoors({ tenantId, userId, roomIds: [reservation.roomId] }).then((d) => d.get(reservation.roomId) ?? []),
    deskSyncState({ tenantId, userId, reservationIds: [reservation.id] }),
  ]);
  return {
    reservation,
    allows,
    checkInWindow,
    checkInProblems,
    freeRooms,
    timeline,
    history: timelineItems(timeline, entries),
    doors,
    sync,
  };
}

/** One line of a reservation's timeline: an audit row, or a door opening the lock reported. */
export type TimelineItem =
  | { type: 'audit'; id: string; at: Date; event: ReadableAuditEvent }
  | {
      type: 'entry';
      id: string;
      at: Date;
      entry: EntryView;
      /** It follows the audit row of the remote unlock that caused it (which says who asked and why). */
      followsRequest: boolean;
    };

/**
 * The audit rows and the door openings of a stay as one history, oldest first (both come sorted; a tie keeps the
 * audit row first). An opening caused by a remote unlock comes after that unlock's audit row even when the lock's
 * clock put it a moment before the row was written (the door opens while the provider is still answering).
 */
export function timelineItems(events: ReadableAuditEvent[], entries: EntryView[]): TimelineItem[] {
  const requests = new Map<string, Date>();
  for (const event of events) {
    const id = event.metadata.remoteUnlockId;
    if (event.action === REMOTE_UNLOCK_ACTION && typeof id === 'string') requests.set(id, new Date(event.occurredAt));
  }
  const items: TimelineItem[] = [
    ...events.map((event) => ({ type: 'audit' as const, id: event.id, at: new Date(event.occurredAt), event })),
    ...entries.map((entry) => {
      const request = entry.remoteUnlockId ? requests.get(entry.remoteUnlockId) : undefined;
      const at = request && request > entry.occurredAt ? request : entry.occurredAt;
      return { type: 'entry' as const, id: entry.id, at, entry, followsRequest: request !== undefined };
    }),
  ];
  // Array.prototype.sort is stable: equal times keep the audit rows (listed first) ahead.
  return items.sort((a, b) => a.at.getTime() - b.at.getTime());
}
