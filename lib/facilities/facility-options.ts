import { z } from 'zod';
import { currencyExponent } from '../i18n/money';

export const PAYMENT_MODES = ['none', 'online', 'at_property'] as const;
export const CHECK_IN_MODES = ['desk', 'self'] as const;
export const REGISTRATION_MODES = ['none', 'jp'] as const;
export const TAX_MODES = ['included', 'added'] as const;

/** How a facility sells and lets guests in: the settings the booking site and guest self-service read. */
export type FacilityOptions = {
  /** ISO 4217, lower case: prices are in its smallest unit. */
  currency: string;
  /** ISO 3166-1 alpha-2: whose public holidays take the holiday price. */
  country: string;
  taxMode: (typeof TAX_MODES)[number];
  /** Basis points: 1000 is 10 %. */
  taxRateBp: number;
  paymentMode: (typeof PAYMENT_MODES)[number];
  checkInMode: (typeof CHECK_IN_MODES)[number];
  /** Hours before a stay starts that a guest may check themselves in (0–168). */
  selfCheckInOpensHours: number;
  registration: (typeof REGISTRATION_MODES)[number];
  /** The texts a guest accepts on the booking site. */
  termsText: string;
  privacyText: string;
};

export const ZCurrencySchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((c) => /^[a-z]{3}$/.test(c) && currencyExponent(c) !== null, 'facilities.error.currency');

export const ZCountrySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'facilities.error.country');

export const ZOpensHoursSchema = z.coerce
  .number('facilities.error.opensHours')
  .int('facilities.error.opensHours')
  .min(0, 'facilities.error.opensHours')
  .max(168, 'facilities.error.opensHours');

/** A booking site address: 3–63 characters of a–z, 0–9 and inner hyphens (facilities' check). */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

export const ZSlugSchema = z.string().trim().toLowerCase().regex(SLUG_PATTERN, 'facilities.error.slug');

/** A tax rate typed as a percentage ("10", "8.5") in basis points, or null when it is not one. */
export function percentToBasisPoints(text: string): number | null {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const bp = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}

/** Basis points as the form shows them again ("10", "8.5"). */
export function basisPointsToPercent(bp: number): string {
  return String(bp / 100);
}

const text = z.string().max(20_000, 'facilities.error.tooLong').optional();

/**
 * A facility's guests-and-payments form, or its booking site texts, as they post: the options left
 * out keep their value. Messages are catalog keys.
 */
export const ZFacilityOptionsFormSchema = z
  .object({
    facilityId: z.uuid(),
    currency: ZCurrencySchema.optional(),
    country: ZCountrySchema.optional(),
    taxMode: z.enum(TAX_MODES, 'facilities.error.choice').optional(),
    taxRate: z.string().optional(),
    paymentMode: z.enum(PAYMENT_MODES, 'facilities.error.choice').optional(),
    checkInMode: z.enum(CHECK_IN_MODES, 'facilities.error.choice').optional(),
    selfCheckInOpensHours: ZOpensHoursSchema.optional(),
    registration: z.enum(REGISTRATION_MODES, 'facilities.error.choice').optional(),
    termsText: text,
    privacyText: text,
  })
  .transform((form, ctx) => {
    const { facilityId, taxRate, ...rest } = form;
    const taxRateBp = taxRate === undefined ? undefined : percentToBasisPoints(taxRate);
    if (taxRateBp === null) {
      ctx.addIssue({ code: 'custom', path: ['taxRate'], message: 'facilities.error.taxRate' });
      return z.NEVER;
    }
    const options: Partial<FacilityOptions> = { ...rest, taxRateBp };
    return { facilityId, options };
  });
