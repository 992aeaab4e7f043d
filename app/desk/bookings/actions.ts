'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { bookGroup } from '@/lib/bookings/book-group';
import { isBookableWindow } from '@/lib/bookings/stay-window';
import { isAppError } from '@/lib/errors';
import { LOCALES } from '@/lib/i18n/locales';
import { listOf, refuse, staffAction, type ActionState } from '@/app/_server/action';

const ZStayInstantSchema = z.iso
  .datetime({ offset: true, message: 'bookingForm.error.window' })
  .transform((s) => new Date(s));

/**
 * Books the chosen rooms of the current tenant for one guest and one stay, all or none. On success
 * it redirects to the bookings list; a taken room comes back in `error.roomIds` with nothing held,
 * and the form's values come back so it can be shown again.
 */
export const bookGroupAction = staffAction(
  {
    name: 'bookGroup',
    permission: 'bookings.create',
    input: z
      .object({
        name: z
          .string('bookingForm.error.name')
          .trim()
          .min(1, 'bookingForm.error.name')
          .max(200, 'bookingForm.error.nameTooLong'),
        email: z
          .string()
          .trim()
          .default('')
          .pipe(z.union([z.literal(''), z.email('bookingForm.error.email').max(320, 'bookingForm.error.email')])),
        phone: z.string().trim().max(40, 'bookingForm.error.phone').default(''),
        // The guest's mail language; empty: the facility's default language.
        locale: z.enum(['', ...LOCALES]).default(''),
        roomIds: listOf(z.uuid('bookingForm.error.roomsNotFound'))
          .transform((ids) => [...new Set(ids)])
          .pipe(z.array(z.string()).min(1, 'bookingForm.error.rooms').max(50, 'bookingForm.error.tooManyRooms')),
        startsAt: ZStayInstantSchema,
        endsAt: ZStayInstantSchema,
      })
      .refine((v) => isBookableWindow(v.startsAt, v.endsAt), { message: 'bookingForm.error.window', path: ['endsAt'] }),
    echo: { name: 'text', email: 'text', phone: 'text', locale: 'text', roomIds: 'list' },
    revalidate: { path: '/desk', type: 'layout' },
  },
  async ({ input: { name, email, phone, locale, roomIds, startsAt, endsAt }, tenantId, actor }) => {
    const group = await bookGroup({
      tenantId,
      actor,
      source: 'desk',
      guest: { name, email: email || null, phone: phone || null },
      locale: locale || null,
      reservations: roomIds.map((roomId) => ({ roomId, startsAt, endsAt })),
      preIssueKeys: true,
    }).catch((error: unknown) => {
      // An hourly facility's hours (lib/bookings/booking-rules.ts): say which hours, in words.
      if (isAppError(error) && error.code === 'invalid_request' && typeof error.details.reason === 'string') {
        const { opensAt, closesAt, timeZone } = error.details as Record<string, string>;
        return refuse('hourly.error.refused', { vars: { opens: opensAt!, closes: closesAt!, zone: timeZone! } });
      }
      throw error;
    });
    if ('id' in group) redirect(`/desk/bookings?created=${encodeURIComponent(group.id)}`);
    return group;
  },
);
export type BookGroupState = ActionState<
  never,
  { name: 'text'; email: 'text'; phone: 'text'; locale: 'text'; roomIds: 'list' }
>;
