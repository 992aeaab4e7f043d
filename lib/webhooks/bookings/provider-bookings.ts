import { openIncident, openIncidentOnce } from '../../incidents/incidents';
import { randomUUID } from 'node:crypto';
import { linkedItems, storedItem, type GuestLocale } from '../../bookings/create-booking-group';
import {
  asService,
  effectStatement,
  runInTransaction,
  runStatements,
  sqlLiteral,
  statement,
  type Tx,
} from '../../db/tx';
import { isAppError } from '../../errors';
import { logger } from '../../log/logger';
import type { WebhookOutcome } from '../types';
import { providerGuestEmail } from '../../guests/guest-email';

type Provider = 'calendly' | 'cal' | 'acuity';

const PROVIDER_LABELS: Record<Provider, string> = { calendly: 'Calendly', cal: 'Cal.com', acuity: 'Acuity' };

const actorFor = (provider: Provider, eventId: string) => ({
  type: 'provider' as const,
  id: eventId,
  label: PROVIDER_LABELS[provider],
});

/**
 * Serialises everything that happens to one provider booking (tenant + provider + external ref):
 * a create's checks and its write, and a cancellation, run one at a time, so a cancel can never land
 * between a create's "not cancelled" and its insert, and a replay waits for the run in flight
 * (`app_lock_provider_booking`, which `app_create_provider_booking` takes too).
 */
async function lockBooking(
  tx: Tx,
  input: { tenantId: string; provider: Provider; externalRef: string },
): Promise<void> {
  await runInTransaction(tx, [
    effectStatement(
      `select app_lock_provider_booking(${sqlLiteral(input.tenantId, 'uuid')}, ${sqlLiteral(input.provider, 'text')},
        ${sqlLiteral(input.externalRef, 'text')})`,
    ),
  ]);
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
    summary: `A ${PROVIDER_LABELS[input.provider]} booking was dropped: no booking source maps its event type, so the guest has no reservation and no key.`,
    detail: { provider: input.provider, eventType: input.eventType, webhookEventId: input.eventId },
    occurrenceId: input.eventId,
  });
}

/** What app_create_provider_booking decided (its migration says when each applies). */
type CreateOutcome = 'created_after_cancel' | 'unmapped_event_type' | 'exists' | 'held';

/**
 * A provider's "booking created": a reservation of the booking source's room at `[startsAt, endsAt)`
 * with a pre-issued key, checked and written in one transaction under the booking's lock, in one round
 * trip (`app_create_provider_booking`; an unmapped event type's incident in a second). Refused
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
  /** The guest as the provider sent it; an email that is not one plain address is stored as none. */
  guest: { name: string; email?: string | null; locale?: GuestLocale | null };
}): Promise<WebhookOutcome> {
  const { tenantId, provider } = input;
  if (!(input.endsAt > input.startsAt)) return { status: 'rejected', reason: 'invalid_time_window' };
  const actor = actorFor(provider, input.eventId);
  const [item] = linkedItems([{ startsAt: input.startsAt, endsAt: input.endsAt }], input.guest.locale);
  const text = (value: string | null | undefined) => sqlLiteral(value ?? null, 'text');
  try {
    const [rows] = await runStatements({ role: 'app_service', tenantId }, [
      statement<{
        outcome: CreateOutcome;
      }>(`select outcome from app_create_provider_booking(${sqlLiteral(tenantId, 'uuid')},
         ${sqlLiteral(provider, 'reservation_source')}, ${text(input.externalRef)}, ${text(input.cancelDedupeKey)},
         ${text(input.eventType)}, ${sqlLiteral(input.eventTime, 'timestamptz')}, ${sqlLiteral(randomUUID(), 'uuid')},
         ${sqlLiteral(randomUUID(), 'uuid')}, ${text(input.guest.name)}, ${text(providerGuestEmail(input.guest.email))},
         ${sqlLiteral(JSON.stringify(storedItem(item!)), 'jsonb')}, ${text(actor.id)}, ${text(actor.label)})`),
    ]);
    const { outcome } = rows![0]!;
    if (outcome === 'created_after_cancel') {
      logger.warn(
        { provider, tenantId, externalRef: input.externalRef, eventId: input.eventId },
        'REFUSED: booking created after the provider cancelled it; no reservation, no key',
      );
      return { status: 'rejected', reason: 'created_after_cancel' };
    }
    if (outcome === 'unmapped_event_type') {
      await asService({ tenantId }, (tx) => openUnmappedIncident(tx, input));
      return { status: 'ignored', reason: 'unmapped_event_type' };
    }
    return { status: 'processed' };
  } catch (error) {
    const refused = await refuseUnavailableSlot(error, input);
    if (refused) return refused;
    throw error;
  }
}

/**
 * A booking the room cannot take (`room_unavailable`: the slot is taken, or the mapped room is archived)
 * is rejected with an incident; null for any other error, which the caller rethrows.
 */
async function refuseUnavailableSlot(
  error: unknown,
  input: { tenantId: string; provider: Provider; eventId: string; externalRef: string; startsAt: Date; endsAt: Date },
): Promise<WebhookOutcome | null> {
  if (!isAppError(error) || error.code !== 'room_unavailable') return null;
  const { tenantId, provider } = input;
  // The mapped room is archived: no time will do, and a guest will arrive with no key until the
  // booking source points at a room in use — said as such, not as "already booked".
  const archived = error.details.reason === 'room_archived';
  const provider_ = PROVIDER_LABELS[provider];
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

/**
 * A provider booking whose times changed in place (Acuity's reschedule keeps the appointment id): the
 * live reservation of the booking moves to `[startsAt, endsAt)` and its keys follow
 * (`change_reservation_dates`), under the booking's lock. Only state read at `eventTime` newer than
 * what the reservation last took moves it, so an older read retried late never moves it back. The
 * same times change nothing; a clash is rejected with an incident like a create.
 */
export async function moveProviderBooking(input: {
  tenantId: string;
  provider: Provider;
  eventId: string;
  externalRef: string;
  startsAt: Date;
  endsAt: Date;
  eventTime: Date;
}): Promise<WebhookOutcome> {
  const { tenantId, provider } = input;
  if (!(input.endsAt > input.startsAt)) return { status: 'rejected', reason: 'invalid_time_window' };
  const actor = actorFor(provider, input.eventId);
  try {
    return await asService({ tenantId }, async (tx) => {
      await lockBooking(tx, input);
      const reservations = await tx.reservation.findMany({
        where: {
          tenantId,
          source: provider,
          externalRef: input.externalRef,
          status: { in: ['held', 'confirmed', 'checked_in'] },
          OR: [{ externalUpdatedAt: null }, { externalUpdatedAt: { lt: input.eventTime } }],
        },
        select: { id: true, startsAt: true, endsAt: true },
      });
      for (const reservation of reservations) {
        if (
          reservation.startsAt.getTime() !== input.startsAt.getTime() ||
          reservation.endsAt.getTime() !== input.endsAt.getTime()
        ) {
          await runInTransaction(tx, [
            effectStatement(`select id from change_reservation_dates(${sqlLiteral(tenantId, 'uuid')},
              ${sqlLiteral(reservation.id, 'uuid')}, ${sqlLiteral(input.startsAt, 'timestamptz')},
              ${sqlLiteral(input.endsAt, 'timestamptz')}, ${sqlLiteral(actor.type, 'actor_type')},
              ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
          ]);
        }
        await tx.reservation.updateMany({
          where: { tenantId, id: reservation.id },
          data: { externalUpdatedAt: input.eventTime },
        });
      }
      return { status: 'processed' as const };
    });
  } catch (error) {
    const refused = await refuseUnavailableSlot(error, input);
    if (refused) return refused;
    // A stay that can no longer move that way (it ended, or started and the start moved): said, not retried.
    if (isAppError(error) && (error.code === 'illegal_transition' || error.code === 'invalid_request'))
      return { status: 'rejected', reason: 'stay_cannot_move' };
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
      await runInTransaction(tx, [
        effectStatement(`select id from cancel_reservation(${sqlLiteral(tenantId, 'uuid')},
          ${sqlLiteral(reservation.id, 'uuid')}, ${sqlLiteral(input.reason, 'text')}, 'booking_canceled',
        ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
      ]);
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
