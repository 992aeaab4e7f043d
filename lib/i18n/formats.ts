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

type Style = keyof typeof formats.dateTime;

/** Formatters by locale, style and zone: facilities' zones are few, and an invalid zone is never kept. */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 1000;

/**
 * The process's one `Intl.DateTimeFormat` for a named format, locale and zone. Building one with a
 * zone costs about a fifth of a millisecond, which a server-rendered page paid for every time it
 * showed; formatting with a built one costs microseconds. Throws a RangeError for an unusable zone.
 */
function dateTimeFormat(locale: string, style: Style, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale} ${style} ${timeZone}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...formats.dateTime[style], timeZone });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, format);
  }
  return format;
}

/** An instant as a `Date`, from a `Date` or its ISO text (what a JSON payload carries). */
export const asDate = (at: Date | string) => (typeof at === 'string' ? new Date(at) : at);

/**
 * An instant in one of the named formats and a zone, with the platform's `Intl` alone: what
 * next-intl's `format.dateTime(at, style, { timeZone })` writes (formats.test.ts), without its
 * formatter per request, and for a Client Component that must not load next-intl's runtime (the
 * guest key, decision 013). `locale` is the formatting tag (`intlLocale`: en-GB, ja-JP). Like
 * next-intl, an unusable zone shows the raw value rather than breaking the page.
 */
export function formatDateTime(
  at: Date | string,
  style: Style,
  { locale, timeZone }: { locale: string; timeZone: string },
): string {
  const date = asDate(at);
  try {
    return dateTimeFormat(locale, style, timeZone).format(date);
  } catch {
    return String(date);
  }
}

/** A range of instants as Intl's range formatting writes it (next-intl's `format.dateTimeRange`), a shared day named once. */
export function formatDateTimeRange(
  from: Date | string,
  to: Date | string,
  style: Style,
  { locale, timeZone }: { locale: string; timeZone: string },
): string {
  const [start, end] = [asDate(from), asDate(to)];
  try {
    return dateTimeFormat(locale, style, timeZone).formatRange(start, end);
  } catch {
    return `${String(start)} – ${String(end)}`;
  }
}

/**
 * An instant as a time of day when it falls on the same day as `now` in the zone ("15:02"), else with its day
 * ("30 Nov 2026, 15:02"): what a list of today's stays writes beside a guest's arrival.
 */
export function formatTimeToday(
  at: Date | string,
  now: Date,
  { locale, timeZone }: { locale: string; timeZone: string },
): string {
  const sameDay = formatDateTime(at, 'day', { locale, timeZone }) === formatDateTime(now, 'day', { locale, timeZone });
  return formatDateTime(at, sameDay ? 'time' : 'stamp', { locale, timeZone });
}
