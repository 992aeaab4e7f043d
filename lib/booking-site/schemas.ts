import { z } from 'zod';
import { ZCalendarDaySchema, ZInstantTextSchema } from '../time/date-schemas';

// The public booking API's bodies (API.md, Public booking): strict, so an unknown field is an error, and a
// price is never among them — the server computes it.

const ZNightsSchema = z.strictObject({
  roomTypeId: z.uuid(),
  checkIn: ZCalendarDaySchema,
  checkOut: ZCalendarDaySchema,
});
const ZHoursSchema = z.strictObject({ roomTypeId: z.uuid(), startsAt: ZInstantTextSchema, endsAt: ZInstantTextSchema });

export const ZQuoteBodySchema = z.union([ZNightsSchema, ZHoursSchema]);

const ZPublicGuestSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(320),
  phone: z.string().trim().max(40).optional(),
});
const ZRequestExtraSchema = {
  guest: ZPublicGuestSchema,
  locale: z.enum(['en', 'ja']).optional(),
  acceptTerms: z.literal(true, { error: 'The terms and the privacy policy must be accepted.' }),
};

export const ZBookingRequestBodySchema = z.union([
  ZNightsSchema.extend(ZRequestExtraSchema),
  ZHoursSchema.extend(ZRequestExtraSchema),
]);

export const ZConfirmBodySchema = z.strictObject({ code: z.string().regex(/^\d{6}$/, 'six digits') });

export const ZAvailabilityQuerySchema = z.strictObject({ from: ZCalendarDaySchema, to: ZCalendarDaySchema });

/** The stay part of a body: days or instants. */
export function choiceOf(
  body: z.infer<typeof ZQuoteBodySchema>,
): { checkIn: string; checkOut: string } | { startsAt: string; endsAt: string } {
  return 'checkIn' in body
    ? { checkIn: body.checkIn, checkOut: body.checkOut }
    : { startsAt: body.startsAt, endsAt: body.endsAt };
}
