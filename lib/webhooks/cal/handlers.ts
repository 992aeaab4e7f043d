import { z } from 'zod';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { guestLocaleOf } from '../../bookings/create-booking-group';
import { cancelProviderBooking, createProviderBooking } from '../bookings/provider-bookings';

export const ZCalBodySchema = z.object({
  triggerEvent: z.string(),
  createdAt: z.string(),
  payload: z
    .object({
      uid: z.string().min(1).max(200),
      startTime: z.string().optional(),
      endTime: z.string().optional(),
      eventTypeId: z.union([z.number(), z.string()]).optional(),
      rescheduleUid: z.string().nullish(),
      cancellationReason: z.string().nullish(),
      attendees: z
        .array(
          z
            .object({
              name: z.string().optional(),
              email: z.string().optional(),
              // The attendee's language (`{ locale: "en" }`); anything else is no language.
              language: z.object({ locale: z.string().optional() }).loose().nullish().catch(null),
            })
            .loose(),
        )
        .optional(),
    })
    .loose(),
});

export const calDedupeKey = (uid: string, trigger: string) => `${uid}:${trigger}`;

function parse(event: StoredWebhookEvent) {
  const body = ZCalBodySchema.parse(event.payload);
  return { body, eventTime: event.providerCreatedAt ?? new Date(body.createdAt) };
}

function create(
  event: StoredWebhookEvent,
  body: z.infer<typeof ZCalBodySchema>,
  eventTime: Date,
): Promise<WebhookOutcome> {
  const p = body.payload;
  if (!p.startTime || !p.endTime || p.eventTypeId === undefined)
    return Promise.resolve({ status: 'rejected', reason: 'incomplete_booking' });
  const attendee = p.attendees?.[0];
  return createProviderBooking({
    tenantId: event.tenantId!,
    provider: 'cal',
    eventId: event.id,
    eventType: String(p.eventTypeId),
    externalRef: p.uid,
    cancelDedupeKey: calDedupeKey(p.uid, 'BOOKING_CANCELLED'),
    startsAt: new Date(p.startTime),
    endsAt: new Date(p.endTime),
    eventTime,
    guest: {
      name: attendee?.name?.trim() || 'Cal.com guest',
      email: attendee?.email ?? null,
      locale: guestLocaleOf(attendee?.language?.locale),
    },
  });
}

/** `BOOKING_CREATED`: a reservation for the booking source's room. */
export async function handleBookingCreated(event: StoredWebhookEvent): Promise<WebhookOutcome> {
  const { body, eventTime } = parse(event);
  return create(event, body, eventTime);
}

/** `BOOKING_CANCELLED`: cancels the booking's reservation and revokes its keys. */
export async function handleBookingCancelled(event: StoredWebhookEvent): Promise<WebhookOutcome> {
  const { body, eventTime } = parse(event);
  return cancelProviderBooking({
    tenantId: event.tenantId!,
    provider: 'cal',
    eventId: event.id,
    externalRef: body.payload.uid,
    eventTime,
    reason: body.payload.cancellationReason?.slice(0, 200) || 'canceled in Cal.com',
  });
}

/** `BOOKING_RESCHEDULED`: the original booking (`rescheduleUid`) is cancelled, the new one (`uid`) created. */
export async function handleBookingRescheduled(event: StoredWebhookEvent): Promise<WebhookOutcome> {
  const { body, eventTime } = parse(event);
  if (body.payload.rescheduleUid && body.payload.rescheduleUid !== body.payload.uid) {
    await cancelProviderBooking({
      tenantId: event.tenantId!,
      provider: 'cal',
      eventId: event.id,
      externalRef: body.payload.rescheduleUid,
      eventTime,
      reason: 'rescheduled',
    });
  }
  return create(event, body, eventTime);
}
