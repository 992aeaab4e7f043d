import { openIncident, openIncidentOnce } from '../../alerts/incidents';
import { holdBookingGroup } from '../../bookings/create-booking-group';
import { asService, type Tx } from '../../db/tx';
import { isAppError } from '../../errors';
import { logger } from '../../log/logger';
import type { WebhookOutcome } from '../types';

type Provider = 'calendly' | 'cal';

const actorFor = (provider: Provider, eventId: string) => ({
  type: 'provider' as const,
  id: eventId,
  label: provider === 'calendly' ? 'Calendly' : 'Cal.com',
});

/**
 * Serialises everything that happens to one provider booking (tenant + provider + external ref):
 * a create's checks and its write, and a cancellation, run one at a time, so a cancel can never land
 * between a create's "not cancelled" and its insert, and a replay waits for the run in flight.
 */
async function lockBooking(
  tx: Tx,
  input: { tenantId: string; provider: Provider; externalRef: string },
): Promise<void> {
  await tx.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`${input.tenantId}:${input.provider}:${input.externalRef}`}, 3))`;
}

/** Whether a cancellation of this booking is known that the provider made at or after `eventTime`. */
async function cancelledAtOrAfter(
  tx: Tx,
  input: { tenantId: string; provider: Provider; externalRef: string; cancelDedupeKey: string; eventTime: Date },
): Promise<boolean> {
  const cancels = await tx.webhookEvent.findMany({
    where: {
      tenantId: input.tenantId,
      provider: input.provider,
      dedupeKey: input.cancelDedupeKey,
      providerCreatedAt: { gte: input.eventTime },
    },
    select: { id: true },
  });
  if (cancels.length > 0) return true;
  const cancelled = await tx.reservation.findMany({
    where: {
      tenantId: input.tenantId,
      source: input.provider,
      externalRef: input.externalRef,
      status: 'cancelled',
      externalUpdatedAt: { gte: input.eventTime },
    },
    select: { id: true },
  });
  return cancelled.length > 0;
}

/**
 * A booking dropped because no booking source maps its event type: a guest will arrive with no
 * reservation and no key, so it is an incident — one per provider and event type, counting each
 * dropped event once. Adding the mapping resolves it (trigger booking_sources_resolve_unmapped).
 */
async function openUnmappedIncident(
  tx: Tx,
  input: { tenantId: string; provider: Provider; eventId: string; eventType: string },
): Promise<void> {
  await openIncidentOnce(tx, {
    tenantId: input.tenantId,
    conditionKey: `booking_unmapped:${input.provider}:${input.eventType}`,
    kind: 'booking_unmapped',
    severity: 'critical',
    summary: `A ${actorFor(input.provider, '').label} booking was dropped: no booking source maps its event type, so the guest has no reservation and no key.`,
    detail: { provider: input.provider, eventType: input.eventType, webhookEventId: input.eventId },
    occurrenceId: input.eventId,
  });
}

/**
 * A provider's "booking created": a reservation of the booking source's room at `[startsAt, endsAt)`
 * with a pre-issued key, checked and written in one transaction under the booking's lock. Refused
 * (`rejected`) when the provider already cancelled this booking at a later time — it never
 * reactivates a booking or issues a key — or when the slot is taken (with an incident).
 */
export async function createProviderBooking(input: {
  tenantId: string;
  provider: Provider;
  eventId: string;
  eventType: string;
  externalRef: string;
  cancelDedupeKey: string;
  startsAt: Date;
  endsAt: Date;
  eventTime: Date;
  guest: { name: string; email?: string | null };
}): Promise<WebhookOutcome> {
  const { tenantId, provider } = input;
  if (!(input.endsAt > input.startsAt)) return { status: 'rejected', reason: 'invalid_time_window' };
  try {
    return await asService({ tenantId }, async (tx): Promise<WebhookOutcome> => {
      await lockBooking(tx, input);
      if (await cancelledAtOrAfter(tx, input)) {
        logger.warn(
          { provider, tenantId, externalRef: input.externalRef, eventId: input.eventId },
          'REFUSED: booking created after the provider cancelled it; no reservation, no key',
        );
        return { status: 'rejected', reason: 'created_after_cancel' };
      }
      const sources = await tx.bookingSource.findMany({
        where: { tenantId, provider, eventType: input.eventType },
        select: { roomId: true },
      });
      if (sources.length !== 1) {
        await openUnmappedIncident(tx, input);
        return { status: 'ignored', reason: 'unmapped_event_type' };
      }
      const existing = await tx.reservation.findMany({
        where: { tenantId, source: provider, externalRef: input.externalRef },
        select: { id: true },
      });
      if (existing.length > 0) return { status: 'processed' };
      await holdBookingGroup(tx, {
        tenantId,
        actor: actorFor(provider, input.eventId),
        source: provider,
        guest: input.guest,
        preIssueKeys: true,
        externalRef: input.externalRef,
        externalUpdatedAt: input.eventTime,
        reservations: [{ roomId: sources[0]!.roomId, startsAt: input.startsAt, endsAt: input.endsAt }],
      });
      return { status: 'processed' };
    });
  } catch (error) {
    if (isAppError(error) && error.code === 'room_unavailable') {
      // The mapped room is archived: no time will do, and a guest will arrive with no key until the
      // booking source points at a room in use — said as such, not as "already booked".
      const archived = error.details.reason === 'room_archived';
      const provider_ = actorFor(provider, '').label;
      await asService({ tenantId }, (tx) =>
        openIncident(tx, {
          tenantId,
          conditionKey: `slot_unavailable:${provider}:${input.externalRef}`,
          kind: archived ? 'room_archived' : 'slot_unavailable',
          severity: archived ? 'critical' : 'warning',
          summary: archived
            ? `A ${provider_} booking is for an archived room; it was not created. Map its event type to a room in use.`
            : `A ${provider_} booking asks for a room that is already booked for that time; it was not created.`,
          detail: {
            externalRef: input.externalRef,
            startsAt: input.startsAt.toISOString(),
            endsAt: input.endsAt.toISOString(),
            webhookEventId: input.eventId,
          },
        }),
      );
      return { status: 'rejected', reason: archived ? 'room_archived' : 'slot_unavailable' };
    }
    throw error;
  }
}

/**
 * A provider's cancellation: cancels the booking's reservation and revokes its keys
 * (`booking_canceled`), in one transaction under the booking's lock.
 */
export async function cancelProviderBooking(input: {
  tenantId: string;
  provider: Provider;
  eventId: string;
  externalRef: string;
  eventTime: Date;
  reason: string;
}): Promise<WebhookOutcome> {
  const { tenantId, provider } = input;
  const actor = actorFor(provider, input.eventId);
  return asService({ tenantId }, async (tx) => {
    await lockBooking(tx, input);
    const reservations = await tx.reservation.findMany({
      where: { tenantId, source: provider, externalRef: input.externalRef },
      select: { id: true },
    });
    for (const reservation of reservations) {
      await tx.$queryRaw`select id from cancel_reservation(${tenantId}::uuid, ${reservation.id}::uuid, ${input.reason}, 'booking_canceled',
        ${actor.type}::actor_type, ${actor.id}, ${actor.label})`;
      await tx.reservation.updateMany({
        where: {
          tenantId,
          id: reservation.id,
          OR: [{ externalUpdatedAt: null }, { externalUpdatedAt: { lt: input.eventTime } }],
        },
        data: { externalUpdatedAt: input.eventTime },
      });
    }
    return { status: 'processed' as const };
  });
}
