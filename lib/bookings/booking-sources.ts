import type { Actor } from '../audit/actor';
import { asService, withTenant } from '../db/tx';
import { AppError } from '../errors';
import { writeAuditEvent } from '../audit/write-audit-event';

const CALENDLY_EVENT_TYPES = 'https://api.calendly.com/event_types/';

export type BookingSourceProvider = 'calendly' | 'cal' | 'acuity';

/**
 * The event type as a provider's webhooks name it: Calendly sends the event type's URI (an id alone
 * is completed to it), Cal.com its numeric id, Acuity its appointment type's numeric id
 * (`appointmentTypeID`). Null when it cannot be one.
 */
export function normaliseEventType(provider: BookingSourceProvider, value: string): string | null {
  const text = value.trim();
  if (provider === 'cal' || provider === 'acuity') return /^\d{1,18}$/.test(text) ? text : null;
  if (/^[A-Za-z0-9-]{1,100}$/.test(text)) return `${CALENDLY_EVENT_TYPES}${text}`;
  return /^https:\/\/api\.calendly\.com\/event_types\/[A-Za-z0-9-]{1,100}$/.test(text) ? text : null;
}

/**
 * Maps a provider's event type (Calendly event type URI, Cal.com event type id, Acuity appointment
 * type id) to one of the tenant's rooms, or to one of its room types (each booking then gets a free
 * room of the type): exactly one of `roomId` and `roomTypeId` (booking_sources_room_or_type). An archived room or type
 * is `conflict`; another tenant's is `not_found`. Mapping it again moves it to the new room or type.
 * With an `actor`, audited `booking_source.added` (with the room or type it had before).
 */
export async function addBookingSource(input: {
  tenantId: string;
  provider: BookingSourceProvider;
  eventType: string;
  roomId?: string | null;
  roomTypeId?: string | null;
  actor?: Actor;
}): Promise<{ id: string }> {
  const { tenantId, provider, eventType, actor } = input;
  const roomId = input.roomId ?? null;
  const roomTypeId = input.roomTypeId ?? null;
  if ((roomId === null) === (roomTypeId === null))
    throw new AppError('invalid_request', 'Give a room or a room type, not both.', {
      issues: [{ path: 'roomId', message: 'give a room or a room type, not both', code: 'custom' }],
    });
  return asService({ tenantId }, async (tx) => {
    const target = roomId
      ? await tx.room.findMany({ where: { tenantId, id: roomId }, select: { label: true, archivedAt: true } })
      : (
          await tx.roomType.findMany({ where: { tenantId, id: roomTypeId! }, select: { name: true, archivedAt: true } })
        ).map(({ name, archivedAt }) => ({ label: name, archivedAt }));
    if (target.length !== 1) throw new AppError('not_found', roomId ? 'No such room.' : 'No such room type.');
    // Its bookings would all be refused: an archived room takes no new stays, an archived type is not sold.
    if (target[0]!.archivedAt)
      throw new AppError(
        'conflict',
        roomId ? 'This room is archived and takes no new stays.' : 'This room type is archived.',
      );
    const before = await tx.bookingSource.findMany({
      where: { tenantId, provider, eventType },
      select: { roomId: true, roomTypeId: true },
    });
    const source = await tx.bookingSource.upsert({
      where: { tenantId_provider_eventType: { tenantId, provider, eventType } },
      create: { tenantId, provider, eventType, roomId, roomTypeId },
      update: { roomId, roomTypeId },
      select: { id: true },
    });
    const previous = before[0];
    if (actor)
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'booking_source.added',
        subject: { type: 'booking_source', id: source.id },
        roomId,
        metadata: {
          provider,
          eventType,
          room: target[0]!.label,
          ...(roomTypeId && { roomTypeId }),
          ...(previous?.roomId && previous.roomId !== roomId && { previousRoomId: previous.roomId }),
          ...(previous?.roomTypeId &&
            previous.roomTypeId !== roomTypeId && { previousRoomTypeId: previous.roomTypeId }),
        },
      });
    return source;
  });
}

/** Removes one of the tenant's booking sources (its event type's bookings are then ignored), audited `booking_source.removed`. */
export async function removeBookingSource(input: {
  tenantId: string;
  sourceId: string;
  actor: Actor;
}): Promise<{ id: string }> {
  const { tenantId, sourceId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const rows = await tx.bookingSource.findMany({
      where: { tenantId, id: sourceId },
      select: {
        provider: true,
        eventType: true,
        roomId: true,
        room: { select: { label: true } },
        roomType: { select: { name: true } },
      },
    });
    if (rows.length !== 1) throw new AppError('not_found', 'No such booking source.');
    const row = rows[0]!;
    await tx.bookingSource.delete({ where: { tenantId_id: { tenantId, id: sourceId } } });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'booking_source.removed',
      subject: { type: 'booking_source', id: sourceId },
      roomId: row.roomId,
      metadata: {
        provider: row.provider,
        eventType: row.eventType,
        room: row.room?.label ?? row.roomType?.name ?? '',
      },
    });
    return { id: sourceId };
  });
}

/** A tenant's booking sources with their rooms. */
export async function listBookingSources({ tenantId }: { tenantId: string }) {
  return withTenant({ tenantId }, (tx) =>
    tx.bookingSource.findMany({
      where: { tenantId },
      include: { room: { select: { label: true } }, roomType: { select: { name: true } } },
      orderBy: [{ provider: 'asc' }, { eventType: 'asc' }],
    }),
  );
}
