import { z } from 'zod';

/**
 * The years a date or an instant given to UnlockOS may name. Every stay, key and record the product holds falls in
 * them, and arithmetic on them (a year-long stay, a zone's offset, 62 days of availability) stays far inside what
 * JavaScript dates, four-digit ISO 8601 years and PostgreSQL can write — year 9999 plus a day is `+010000-01-01`.
 * Fixed rather than relative to today, so a request that is valid once stays valid.
 */
export const DATE_YEARS = { first: 2000, last: 2100 } as const;

const YEARS = `${DATE_YEARS.first}–${DATE_YEARS.last}`;
const LEADING_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** Whether `text` starts with a real calendar day (no 30 February) in `DATE_YEARS`. */
function startsWithSaneDay(text: string): boolean {
  const match = LEADING_DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < DATE_YEARS.first || year > DATE_YEARS.last) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A calendar day, `YYYY-MM-DD`, that exists and lies in `DATE_YEARS`; kept as its text. */
export const ZCalendarDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date, YYYY-MM-DD')
  .refine(startsWithSaneDay, `a real date in ${YEARS}`);

/** An RFC 3339 instant with an offset whose date exists and lies in `DATE_YEARS`; kept as its text. */
export const ZInstantTextSchema = z.iso
  .datetime({ offset: true })
  .refine((text) => startsWithSaneDay(text) && !Number.isNaN(Date.parse(text)), `a real date in ${YEARS}`);

/** `ZInstantTextSchema` read as a Date. */
export const ZInstantSchema = ZInstantTextSchema.transform((text) => new Date(text));
