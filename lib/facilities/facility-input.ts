import { z } from 'zod';
import { LOCALES, type Locale } from '../i18n/locales';
import { GUEST_INFO_FIELDS, ZGuestInfo, type GuestInfo } from './guest-info';
import { isTimeZone } from './time-zones';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const time = z.string().trim().regex(HHMM, 'facilities.error.time');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'facilities.error.tooLong')
    .transform((v) => (v === '' ? null : v));

/**
 * The facility form: every setting of a facility, flat as a form posts it (guest texts as
 * `en.keypad`, `ja.wifiName` …), checked the way the database's constraints check them, so a form
 * the schema accepts is one the database accepts. Messages are catalog keys.
 */
export const ZFacilityFormSchema = z
  .object({
    /** The facility being edited; absent for a new one. */
    facilityId: z.preprocess((v) => (v === '' ? undefined : v), z.uuid().optional()),
    name: z.string().trim().min(1, 'facilities.error.nameRequired').max(200, 'facilities.error.tooLong'),
    timeZone: z.string().refine(isTimeZone, 'facilities.error.timeZone'),
    defaultLanguage: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(LOCALES, 'facilities.error.defaultLanguage').default('en'),
    ),
    /**
     * Checkboxes beside an empty hidden value (the form always sends one): only that value means none is
     * ticked; a post without the field at all (a form of before, a tool) offers every language.
     */
    guestLanguages: z.preprocess(
      (v) => (v === undefined ? [...LOCALES] : (Array.isArray(v) ? v : [v]).filter((l) => l !== '')),
      z.array(z.enum(LOCALES, 'facilities.error.guestLanguages')).min(1, 'facilities.error.guestLanguages'),
    ),
    bookingUnit: z.enum(['night', 'hour'], 'facilities.error.bookingUnit'),
    checkInTime: time,
    checkOutTime: time,
    opensAt: z.string().trim().optional(),
    closesAt: z.string().trim().optional(),
    keyLeadMinutes: z.coerce
      .number('facilities.error.minutes')
      .int('facilities.error.minutes')
      .min(0, 'facilities.error.minutes')
      .max(10080, 'facilities.error.minutes'),
    earlyCheckInMinutes: z.coerce
      .number('facilities.error.minutes')
      .int('facilities.error.minutes')
      .min(0, 'facilities.error.minutes')
      .max(1440, 'facilities.error.minutes'),
    address: optionalText(500),
    phone: optionalText(50),
    /** How guests write to the property (the guest page's mailto: link); the database checks its shape too. */
    email: z.preprocess(
      (v) => v ?? '',
      optionalText(254).refine((v) => v === null || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v), 'facilities.error.email'),
    ),
    ...Object.fromEntries(
      (['en', 'ja'] as const).flatMap((locale) =>
        GUEST_INFO_FIELDS.map((field) => [
          `${locale}.${field}`,
          z
            .string()
            .trim()
            .max(field === 'wifiName' || field === 'wifiPassword' ? 100 : 2000, 'facilities.error.tooLong')
            .optional(),
        ]),
      ),
    ),
  })
  .superRefine((form, ctx) => {
    if (form.guestLanguages.length > 0 && !form.guestLanguages.includes(form.defaultLanguage))
      ctx.addIssue({ code: 'custom', path: ['defaultLanguage'], message: 'facilities.error.defaultNotOffered' });
    if (form.bookingUnit !== 'hour') return;
    const opens = form.opensAt ?? '';
    const closes = form.closesAt ?? '';
    if (!HHMM.test(opens)) ctx.addIssue({ code: 'custom', path: ['opensAt'], message: 'facilities.error.time' });
    if (!HHMM.test(closes)) ctx.addIssue({ code: 'custom', path: ['closesAt'], message: 'facilities.error.time' });
    else if (HHMM.test(opens) && closes <= opens)
      ctx.addIssue({ code: 'custom', path: ['closesAt'], message: 'facilities.error.closesBeforeOpens' });
  })
  .transform((form) => {
    const raw = form as Record<string, unknown>;
    const guestInfo: GuestInfo = {};
    for (const locale of ['en', 'ja'] as const) {
      const texts = Object.fromEntries(
        GUEST_INFO_FIELDS.map((field) => [field, raw[`${locale}.${field}`]]).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
        ),
      );
      if (Object.keys(texts).length > 0) guestInfo[locale] = texts;
    }
    const settings: FacilitySettings = {
      name: form.name,
      timeZone: form.timeZone,
      defaultLanguage: form.defaultLanguage,
      guestLanguages: LOCALES.filter((locale) => form.guestLanguages.includes(locale)),
      bookingUnit: form.bookingUnit,
      checkInTime: form.checkInTime,
      checkOutTime: form.checkOutTime,
      opensAt: form.bookingUnit === 'hour' ? (form.opensAt ?? null) : null,
      closesAt: form.bookingUnit === 'hour' ? (form.closesAt ?? null) : null,
      keyLeadMinutes: form.keyLeadMinutes,
      earlyCheckInMinutes: form.earlyCheckInMinutes,
      address: form.address,
      phone: form.phone,
      email: form.email,
      guestInfo: ZGuestInfo.parse(guestInfo),
    };
    return { facilityId: form.facilityId, settings };
  });

/** A facility's settings as the domain takes them: local times as "HH:MM". */
export type FacilitySettings = {
  name: string;
  timeZone: string;
  /** The language of guests' mails when a booking has none. */
  defaultLanguage: Locale;
  /** The languages guests are offered (the booking site, the guest page); the default is one of them. */
  guestLanguages?: Locale[];
  bookingUnit: 'night' | 'hour';
  checkInTime: string;
  checkOutTime: string;
  opensAt: string | null;
  closesAt: string | null;
  keyLeadMinutes: number;
  earlyCheckInMinutes: number;
  address: string | null;
  phone: string | null;
  /** Optional where the caller does not set it (a new facility made by the operator's tools). */
  email?: string | null;
  guestInfo: GuestInfo;
};

/** A local time of day ("HH:MM") as Prisma writes a `time` column, and back. */
export function timeColumn(hhmm: string): Date {
  return new Date(`1970-01-01T${hhmm}:00Z`);
}
export function fromTimeColumn(value: Date): string {
  return value.toISOString().slice(11, 16);
}
