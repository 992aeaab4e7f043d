import { z } from 'zod';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { cancelProviderBooking, createProviderBooking } from '../bookings/provider-bookings';

export const ZCalendlyBodySchema = z.object({
  event: z.string(),
  created_at: z.string(),
  payload: z
    .object({
      uri: z.string().min(1).max(500),
      name: z.string().max(200).optional(),
      email: z.string().max(320).nullish(),
      rescheduled: z.boolean().optional(),
      old_invitee: z.string().nullish(),
      cancellation: z.object({ reason: z.string().nullish() }).loose().nullish(),
      scheduled_event: z.object({ start_time: z.string(), end_time: z.string(), event_type: z.string() }).loose(),
    })
    .loose(),
});

export const calendlyDedupeKey = (uri: string, event: string) => `${uri}:${event}`;

function parse(event: StoredWebhookEvent) {
  const body = ZCalendlyBodySchema.parse(event.payload);
  return { body, eventTime: event.providerCreatedAt ?? new Date(body.created_at) };
}

/** `invitee.created`: a reservation for the booking source's room; a reschedule first cancels the old invitee. */
export async function handleInviteeCreated(event: StoredWebhookEvent): Promise<WebhookOutcome> {
  const { body, eventTime } = parse(event);
  const tenantId = event.tenantId!;
  if (body.payload.old_invitee) {
    await cancelProviderBooking({
      tenantId,
      provider: 'calendly',
      eventId: event.id,
      externalRef: body.payload.old_invitee,
      eventTime,
      reason: 'rescheduled',
    });
  }
  return createProviderBooking({
    tenantId,
    provider: 'calendly',
    eventId: event.id,
    eventType: body.payload.scheduled_event.event_type,
    externalRef: body.payload.uri,
    cancelDedupeKey: calendlyDedupeKey(body.payload.uri, 'invitee.canceled'),
    startsAt: new Date(body.payload.scheduled_event.start_time),
    endsAt: new Date(body.payload.scheduled_event.end_time),
    eventTime,
    guest: { name: body.payload.name?.trim() || 'Calendly guest', email: body.payload.email ?? null },
  });
}

/** `invitee.canceled`: cancels that invitee's reservation (never a rescheduled successor: it has another URI). */
export async function handleInviteeCanceled(event: StoredWebhookEvent): Promise<WebhookOutcome> {
  const { body, eventTime } = parse(event);
  return cancelProviderBooking({
    tenantId: event.tenantId!,
    provider: 'calendly',
    eventId: event.id,
    externalRef: body.payload.uri,
    eventTime,
    reason: body.payload.rescheduled
      ? 'rescheduled'
      : body.payload.cancellation?.reason?.slice(0, 200) || 'canceled in Calendly',
  });
}
