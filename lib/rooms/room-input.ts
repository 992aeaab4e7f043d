import { z } from 'zod';

export { currencyExponent, fromMinorUnits, toMinorUnits } from '../i18n/money';
import { currencyExponent, toMinorUnits } from '../i18n/money';

/** A room's settings as the domain takes them. */
export type RoomSettings = {
  label: string;
  rateCents: number;
  currency: string;
  rateUnit: 'night' | 'hour';
  rateName: string;
  pinLength: number;
};

/** The room form: label, rate (typed in the currency's major unit), unit, rate name, PIN length. Messages are catalog keys. */
const optionalId = z.preprocess((v) => (v === '' ? undefined : v), z.uuid().optional());

export const ZRoomFormSchema = z
  .object({
    /** The room being edited; absent for a new one, which names its facility. */
    roomId: optionalId,
    facilityId: optionalId,
    /** The room's type: empty for none; left out, it keeps its type. */
    roomTypeId: z.preprocess((v) => (v === '' ? null : v), z.uuid('rooms.error.roomType').nullable().optional()),
    label: z.string().trim().min(1, 'rooms.error.labelRequired').max(100, 'rooms.error.tooLong'),
    currency: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z]{3}$/, 'rooms.error.currency')
      .refine((c) => currencyExponent(c) !== null, 'rooms.error.currency'),
    rate: z.string().trim(),
    rateUnit: z.enum(['night', 'hour'], 'rooms.error.rateUnit'),
    rateName: z.string().trim().min(1, 'rooms.error.rateNameRequired').max(100, 'rooms.error.tooLong'),
    pinLength: z.coerce
      .number('rooms.error.pinLength')
      .int('rooms.error.pinLength')
      .min(4, 'rooms.error.pinLength')
      .max(10, 'rooms.error.pinLength'),
  })
  .transform((form, ctx) => {
    const rateCents = toMinorUnits(form.rate, form.currency);
    if (rateCents === null || rateCents > 2_147_483_647) {
      ctx.addIssue({ code: 'custom', path: ['rate'], message: 'rooms.error.rate' });
      return z.NEVER;
    }
    const settings: RoomSettings = {
      label: form.label,
      rateCents,
      currency: form.currency,
      rateUnit: form.rateUnit,
      rateName: form.rateName,
      pinLength: form.pinLength,
    };
    return { roomId: form.roomId, facilityId: form.facilityId, roomTypeId: form.roomTypeId, settings };
  });
