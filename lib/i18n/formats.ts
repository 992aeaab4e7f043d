import { createFormatter, type Formats } from 'next-intl';
import { intlLocale, type Locale } from './locale';

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

export type Formatter = ReturnType<typeof createFormatter>;

/** A formatter for one locale and IANA time zone; an unknown zone falls back to UTC rather than failing the page. */
export function formatterFor(locale: Locale, timeZone: string): Formatter {
  return createFormatter({ locale: intlLocale(locale), timeZone: validZone(timeZone), formats });
}

function validZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}
