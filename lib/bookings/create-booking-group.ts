import { createHash } from 'node:crypto';
import type { Actor } from '../audit/actor';
import { createGuestLink } from '../auth/guest-links';
import { asService, type Tx } from '../db/tx';
import { AppError } from '../errors';
import type { ReservationSource } from '../db/generated/enums';

export type BookingItem = { roomId: string; startsAt: Date; endsAt: Date };

export type CreateBookingGroupInput = {
  tenantId: string;
  actor: Actor;
  guest: { name: string; email?: string | null; phone?: string | null };
  reservations: BookingItem[];
  source: ReservationSource;
  preIssueKeys?: boolean;
  planName?: string | null;
  paymentIntentId?: string | null;
  externalRef?: string | null;
  externalUpdatedAt?: Date | null;
};

export type CreatedBookingGroup = {
  id: string;
  guestId: string;
  reservations: { id: string; roomId: string; guestLinkToken: string }[];
};

/** A pseudonymous, stable reference to a guest, kept on reservations after the guest is deleted. */
export function guestRef(guestId: string): string {
  return `guest_${createHash('sha256').update(guestId).digest('hex').slice(0, 12)}`;
}

/** Rooms among `items` that already have a live reservation overlapping the requested window. */
async function conflictingRooms(tx: Tx, tenantId: string, items: BookingItem[]): Promise<string[]> {
  const conflicts = new Set<string>();
  for (const item of items) {
    const rows = await tx.$queryRaw<{ room_id: string }[]>`select room_id from reservations
      where tenant_id = ${tenantId}::uuid and room_id = ${item.roomId}::uuid and status <> 'cancelled'
        and tstzrange(starts_at, ends_at, '[)') && tstzrange(${item.startsAt}, ${item.endsAt}, '[)') limit 1`;
    if (rows.length > 0) conflicts.add(item.roomId);
  }
  // Two items of the same request for one room and overlapping times conflict with each other.
  items.forEach((a, i) =>
    items.forEach((b, j) => {
      if (i < j && a.roomId === b.roomId && a.startsAt < b.endsAt && b.startsAt < a.endsAt) conflicts.add(a.roomId);
    }),
  );
  return [...conflicts];
}

/**
 * Holds every reservation of a booking group or none, in one transaction: the guest, the group,
 * the reservations with their snapshots, a guest link each and (by default) a pre-issued key each.
 * A room that is taken fails the whole group with `room_unavailable` and the rooms that failed.
 */
export async function createBookingGroup(input: CreateBookingGroupInput): Promise<CreatedBookingGroup> {
  const { tenantId, actor } = input;
  try {
    return await asService({ tenantId }, async (tx) => {
      const roomIds = [...new Set(input.reservations.map((r) => r.roomId))];
      const rooms = await tx.room.findMany({ where: { tenantId, id: { in: roomIds } }, select: { id: true, label: true } });
      if (rooms.length !== roomIds.length) {
        throw new AppError('not_found', 'One or more rooms do not exist.', { roomIds: roomIds.filter((id) => !rooms.some((r) => r.id === id)) });
      }
      // Serialize bookings of the same rooms, so the conflict answer names every room that failed.
      for (const roomId of [...roomIds].sort()) await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${roomId}, 2))`;
      const conflicts = await conflictingRooms(tx, tenantId, input.reservations);
      if (conflicts.length > 0) throw new AppError('room_unavailable', 'Some rooms are not available for those dates.', { roomIds: conflicts });

      const guest = await tx.guest.create({
        data: { tenantId, name: input.guest.name, email: input.guest.email ?? null, phone: input.guest.phone ?? null },
        select: { id: true },
      });
      const group = await tx.bookingGroup.create({ data: { tenantId, paymentIntentId: input.paymentIntentId ?? null }, select: { id: true } });
      const created: CreatedBookingGroup['reservations'] = [];
      for (const item of input.reservations) {
        const reservation = await tx.reservation.create({
          data: {
            tenantId, bookingGroupId: group.id, roomId: item.roomId, guestId: guest.id, startsAt: item.startsAt, endsAt: item.endsAt,
            status: 'confirmed', source: input.source, externalRef: input.externalRef ?? null, externalUpdatedAt: input.externalUpdatedAt ?? null,
            roomLabelSnapshot: rooms.find((r) => r.id === item.roomId)!.label, planNameSnapshot: input.planName ?? null, guestRefSnapshot: guestRef(guest.id),
          },
          select: { id: true },
        });
        const link = await createGuestLink(tx, { tenantId, reservationId: reservation.id, endsAt: item.endsAt });
        await tx.auditEvent.create({
          data: {
            tenantId, actorType: actor.type, actorId: actor.id, actorLabel: actor.label, action: 'reservation.created',
            subjectType: 'reservation', subjectId: reservation.id, roomId: item.roomId, metadata: { bookingGroupId: group.id, source: input.source },
          },
        });
        if (input.preIssueKeys !== false && item.endsAt > new Date()) {
          await tx.$queryRaw`select id from pre_issue_key(${tenantId}::uuid, ${reservation.id}::uuid, ${actor.type}::actor_type, ${actor.id}, ${actor.label})`;
        }
        created.push({ id: reservation.id, roomId: item.roomId, guestLinkToken: link.token });
      }
      return { id: group.id, guestId: guest.id, reservations: created };
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'room_unavailable' && !error.details.roomIds) {
      // The exclusion constraint caught a race the check above could not see; name the rooms now.
      const conflicts = await asService({ tenantId }, (tx) => conflictingRooms(tx, tenantId, input.reservations));
      throw new AppError('room_unavailable', 'Some rooms are not available for those dates.', { roomIds: conflicts });
    }
    throw error;
  }
}
