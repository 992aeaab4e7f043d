import { z } from 'zod';
import { currencyExponent, toMinorUnits } from '../i18n/money';

/** A room type's settings as the domain takes them: prices in the facility currency's smallest unit. */
export type RoomTypeSettings = {
  name: string;
  description: string;
  capacity: number;
  weekdayCents: number;
  /** Null: the weekday price. */
  weekendCents: number | null;
  /** Null: the weekend price. */
  holidayCents: number | null;
};

/** The most a price may be (room_types' checks). */
export const MAX_PRICE_CENTS = 100_000_000;

const optionalId = z.preprocess((v) => (v === '' ? undefined : v), z.uuid().optional());

/**
 * The room type form: name, description, capacity and the three prices typed in the facility
 * currency's major unit (weekend and holiday may be left empty), checked as the table checks them.
 * `currency` is the facility's, as the page showed it: the prices are read in it. Messages are catalog keys.
 */
export const ZRoomTypeFormSchema = z
  .object({
    /** The room type being edited; absent for a new one, which names its facility. */
    roomTypeId: optionalId,
    facilityId: optionalId,
    name: z.string().trim().min(1, 'roomTypes.error.nameRequired').max(80, 'roomTypes.error.tooLong'),
    description: z.string().trim().max(2000, 'roomTypes.error.tooLong').default(''),
    capacity: z.coerce
      .number('roomTypes.error.capacity')
      .int('roomTypes.error.capacity')
      .min(1, 'roomTypes.error.capacity')
      .max(50, 'roomTypes.error.capacity'),
    currency: z
      .string()
      .trim()
      .toLowerCase()
      .refine((c) => /^[a-z]{3}$/.test(c) && currencyExponent(c) !== null, 'roomTypes.error.price'),
    weekday: z.string().trim(),
    weekend: z.string().trim().default(''),
    holiday: z.string().trim().default(''),
  })
  .transform((form, ctx) => {
    const price = (field: 'weekday' | 'weekend' | 'holiday'): number | null | undefined => {
      if (field !== 'weekday' && form[field] === '') return null;
      const cents = toMinorUnits(form[field], form.currency);
      if (cents === null || cents > MAX_PRICE_CENTS) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'roomTypes.error.price' });
        return undefined;
      }
      return cents;
    };
    const [weekdayCents, weekendCents, holidayCents] = [price('weekday'), price('weekend'), price('holiday')];
    if (weekdayCents == null || weekendCents === undefined || holidayCents === undefined) return z.NEVER;
    const settings: RoomTypeSettings = {
      name: form.name,
      description: form.description,
      capacity: form.capacity,
      weekdayCents,
      weekendCents,
      holidayCents,
    };
    return { roomTypeId: form.roomTypeId, facilityId: form.facilityId, currency: form.currency, settings };
  });
