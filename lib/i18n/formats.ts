import type { Formats } from 'next-intl';

/**
 * The named formats of the product, one rule everywhere: an instant is a medium date and a short
 * time ("30 Nov 2026, 15:00"), a day is a medium date, and a range of either is written by Intl's
 * range formatting ("30 Nov 2026, 15:00 – 1 Dec 2026, 11:00"), always in the zone the caller names
 * — the facility's for anything that happens at a door.
 */
export const formats = {
  dateTime: {
    stamp: { dateStyle: 'medium', timeStyle: 'short' },
    day: { dateStyle: 'medium' },
    time: { timeStyle: 'short' },
  },
} as const satisfies Formats;

/**
 * An instant in one of the named formats and a zone, with the platform's `Intl` alone: what
 * next-intl's `format.dateTime(at, style, { timeZone })` writes (formats.test.ts), for a Client
 * Component that must not load next-intl's runtime (the guest key, decision 013). `locale` is the
 * formatting tag (`intlLocale`: en-GB, ja-JP). Like next-intl, an unusable zone shows the raw value
 * rather than breaking the page.
 */
export function formatDateTime(
  at: Date | string,
  style: keyof typeof formats.dateTime,
  { locale, timeZone }: { locale: string; timeZone: string },
): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  try {
    return new Intl.DateTimeFormat(locale, { ...formats.dateTime[style], timeZone }).format(date);
  } catch {
    return String(date);
  }
}
