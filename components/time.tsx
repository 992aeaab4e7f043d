import { useLocale, useTranslations } from 'next-intl';
import { asDate, formatDateTime, formatDateTimeRange, type formats } from '@/lib/i18n/formats';

// The named formats (lib/i18n/formats.ts) in next-intl's locale (i18n/request.ts), with the process's
// formatters: next-intl's own `useFormatter` builds an Intl formatter per request.
type Zoned = { zone: string; style?: keyof typeof formats.dateTime };

/** One instant in a named zone, in the reader's locale ("30 Nov 2026, 15:00"), as a <time> element. */
export function When({ at, zone, style = 'stamp' }: Zoned & { at: Date | string }) {
  const locale = useLocale();
  const date = asDate(at);
  return <time dateTime={date.toISOString()}>{formatDateTime(date, style, { locale, timeZone: zone })}</time>;
}

/**
 * A range of instants, the one way ranges are written everywhere: Intl's range formatting, which
 * names a shared day once ("30 Nov 2026, 15:00 – 18:00") and both days when they differ.
 */
export function Span({ from, to, zone, style = 'stamp' }: Zoned & { from: Date | string; to: Date | string }) {
  const locale = useLocale();
  return <span>{formatDateTimeRange(from, to, style, { locale, timeZone: zone })}</span>;
}

/** The line every staff page shows under its heading: which zone its times are in. */
export function TimesIn({ zone }: { zone: string }) {
  const t = useTranslations('common');
  return <p className="muted small">{t('timesIn', { zone })}</p>;
}
