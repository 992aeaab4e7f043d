'use server';

import { z } from 'zod';
import { addBookingSource, normaliseEventType, removeBookingSource } from '@/lib/bookings/booking-sources';
import { refuse, staffAction } from '@/app/_server/action';

const SOURCES = { path: '/manage/booking-sources' } as const;

/** What the form's target names: a room by its id, a room type as `type:<id>`. */
const ZTargetSchema = z.union(
  [
    z.uuid().transform((roomId) => ({ roomId, roomTypeId: null })),
    z
      .string()
      .regex(/^type:/)
      .transform((text) => text.slice(5))
      .pipe(z.uuid())
      .transform((roomTypeId) => ({ roomId: null, roomTypeId })),
  ],
  'bookingSources.targetRequired',
);

/**
 * Maps a Calendly or Cal.com event type or an Acuity appointment type to a room or a room type (an event type mapped again moves
 * to the new one); audited.
 */
export const addBookingSourceAction = staffAction(
  {
    name: 'addBookingSource',
    permission: 'property.manage',
    input: z.object({
      provider: z.enum(['calendly', 'cal', 'acuity'], 'bookingSources.error'),
      eventType: z.string().trim().min(1, 'bookingSources.eventTypeRequired').max(500),
      roomId: ZTargetSchema,
    }),
    echo: { provider: 'text', eventType: 'text', roomId: 'text' },
    revalidate: SOURCES,
  },
  async ({ input: { provider, eventType, roomId: target }, tenantId, actor }) => {
    const normalised = normaliseEventType(provider, eventType);
    if (!normalised) return refuse(`bookingSources.eventTypeInvalid.${provider}`, { field: 'eventType' });
    return addBookingSource({ tenantId, provider, eventType: normalised, ...target, actor });
  },
);

/** Removes a booking source: its event type's bookings are ignored from now on; audited. */
export const removeBookingSourceAction = staffAction(
  {
    name: 'removeBookingSource',
    permission: 'property.manage',
    input: z.object({ sourceId: z.uuid() }),
    revalidate: SOURCES,
  },
  ({ input: { sourceId }, tenantId, actor }) => removeBookingSource({ tenantId, sourceId, actor }),
);
