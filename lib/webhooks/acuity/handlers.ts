import { z } from 'zod';
import { getProviderSecret } from '../../secrets/provider-secrets';
import { readAcuityCredentials } from '../../secrets/acuity-credentials';
import type { StoredWebhookEvent, WebhookOutcome } from '../types';
import { cancelProviderBooking, createProviderBooking, moveProviderBooking } from '../bookings/provider-bookings';
import { AcuityApiError, appointmentWindow, fetchAcuityAppointment } from './appointment';

export const ACUITY_ACTIONS = ['appointment.scheduled', 'appointment.rescheduled', 'appointment.canceled'] as const;

/** A delivery's form fields: the action and the appointment's id (the type and calendar are informative). */
export const ZAcuityFormSchema = z
  .object({
    action: z.string().min(1).max(100),
    id: z.string().regex(/^\d{1,20}$/),
    calendarID: z.string().max(40).optional(),
    appointmentTypeID: z.string().max(40).optional(),
  })
  .loose();
export type TAcuityForm = z.infer<typeof ZAcuityFormSchema>;

export const acuityDedupeKey = (id: string, action: string) => `${id}:${action}`;

/**
 * Every Acuity action of an appointment converges on its current state, read from Acuity's API
 * (the delivery carries only the id): cancelled there → the reservation cancelled and its keys
 * revoked; otherwise a reservation of the appointment type's room (created once, with a pre-issued
 * key) at the appointment's current times, its keys following a reschedule. So a rescheduled that
 * arrives before its scheduled books the new times, and a late or retried delivery applies nothing
 * older than what is there: the read's time orders the changes (a cancel delivered after the read
 * began refuses the create, a move only applies a newer read).
 */
export async function handleAcuityAppointment(event: StoredWebhookEvent): Promise<WebhookOutcome> {
  const form = ZAcuityFormSchema.parse(event.payload);
  const tenantId = event.tenantId!;
  const credentials = readAcuityCredentials(await getProviderSecret({ tenantId, provider: 'acuity' }));
  // The delivery was verified with them; without them now, the manager is changing them: retried.
  if (!credentials) throw new AcuityApiError('acuity_unauthorized');
  const readAt = new Date();
  const read = await fetchAcuityAppointment(credentials, form.id);
  if (read.status === 'not_found') return { status: 'rejected', reason: 'appointment_not_found' };
  const appointment = read.appointment;
  if (appointment.id !== form.id) return { status: 'rejected', reason: 'appointment_mismatch' };
  const booking = { tenantId, provider: 'acuity' as const, eventId: event.id, externalRef: appointment.id };
  if (appointment.canceled) {
    return cancelProviderBooking({ ...booking, eventTime: readAt, reason: 'canceled in Acuity' });
  }
  const window = appointmentWindow(appointment);
  if (!window) return { status: 'rejected', reason: 'incomplete_booking' };
  const name = [appointment.firstName, appointment.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  const created = await createProviderBooking({
    ...booking,
    eventType: appointment.appointmentTypeID,
    cancelDedupeKey: acuityDedupeKey(appointment.id, 'appointment.canceled'),
    ...window,
    eventTime: readAt,
    guest: { name: name.slice(0, 200) || 'Acuity guest', email: appointment.email ?? null },
  });
  if (created.status !== 'processed') return created;
  // Created now (its times are these) or before: then it moves to the times just read.
  return moveProviderBooking({ ...booking, ...window, eventTime: readAt });
}
