/**
 * Formatting for the booking site's Client Components, with the platform's Intl only (no i18n
 * runtime on the page, decision 013). `tag` is the formatting locale (`intlLocale`: en-GB, ja-JP).
 */

// One formatter per locale and options for the page's life: building one costs far more than
// formatting with it, and a month's grid formats some fifty labels on every render.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(tag: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${tag} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(tag, options)));
  return format;
}

/**
 * An amount in the currency's smallest unit (12000 JPY = ¥12,000; 1234 EUR = €12.34): the
 * currency's own number of decimals decides, as lib/i18n/money.ts does on the server.
 */
export function formatAmount(tag: string, amount: number, currency: string): string {
  const code = currency.toUpperCase();
  try {
    const format = new Intl.NumberFormat(tag, { style: 'currency', currency: code });
    const exponent = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** exponent);
  } catch {
    return `${amount} ${code}`;
  }
}

const noon = (day: string) => new Date(`${day}T12:00:00Z`);

/** A `YYYY-MM-DD` day in words: `long` "Thursday, 10 December 2026", `medium` "10 Dec 2026", `short` "Thu 10 Dec". */
export function formatDay(tag: string, day: string, style: 'long' | 'medium' | 'short'): string {
  const options: Intl.DateTimeFormatOptions =
    style === 'long'
      ? { dateStyle: 'full' }
      : style === 'medium'
        ? { dateStyle: 'medium' }
        : { weekday: 'short', day: 'numeric', month: 'short' };
  return dateFormat(tag, { ...options, timeZone: 'UTC' }).format(noon(day));
}

/** A month's title ("December 2026", "2026年12月"). */
export function formatMonth(tag: string, month: string): string {
  return dateFormat(tag, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(noon(`${month}-01`));
}

/** Short weekday names from `weekStart` (0 = Sunday), for the grid's column headers. */
export function weekdayNames(tag: string, weekStart: 0 | 1): { short: string; long: string }[] {
  // 2026-11-01 is a Sunday.
  return Array.from({ length: 7 }, (_, i) => {
    const day = noon(`2026-11-${String(1 + ((i + weekStart) % 7)).padStart(2, '0')}`);
    return {
      short: dateFormat(tag, { weekday: 'short', timeZone: 'UTC' }).format(day),
      long: dateFormat(tag, { weekday: 'long', timeZone: 'UTC' }).format(day),
    };
  });
}

/** A wall-clock `HH:MM` in the locale's way of writing times ("15:00", "15:00"). */
export function formatClock(tag: string, time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return dateFormat(tag, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })
    .format(Date.UTC(2026, 0, 1, h % 24, m))
    .replace(/^00/, h === 24 ? '24' : '00');
}

/** The locale's plural category for a count (picks "1 night" or "2 nights"). */
export function pluralOf(tag: string, count: number): 'one' | 'other' {
  return new Intl.PluralRules(tag).select(count) === 'one' ? 'one' : 'other';
}
