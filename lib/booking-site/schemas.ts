import { z } from 'zod';

// The public booking API's bodies (API.md, Public booking): strict, so an unknown field is an error, and a
// price is never among them — the server computes it.

const ZDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date, YYYY-MM-DD');
const ZInstantSchema = z.iso.datetime({ offset: true });

const ZNightsSchema = z.strictObject({ roomTypeId: z.uuid(), checkIn: ZDateSchema, checkOut: ZDateSchema });
const ZHoursSchema = z.strictObject({ roomTypeId: z.uuid(), startsAt: ZInstantSchema, endsAt: ZInstantSchema });

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

export const ZAvailabilityQuerySchema = z.strictObject({ from: ZDateSchema, to: ZDateSchema });

/** The stay part of a body: days or instants. */
export function choiceOf(
  body: z.infer<typeof ZQuoteBodySchema>,
): { checkIn: string; checkOut: string } | { startsAt: string; endsAt: string } {
  return 'checkIn' in body
    ? { checkIn: body.checkIn, checkOut: body.checkOut }
    : { startsAt: body.startsAt, endsAt: body.endsAt };
}
