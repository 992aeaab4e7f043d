import Holidays from 'date-holidays';
import { addDays, zonedToday } from '../bookings/stay-window';

// Prices come from the room type's rate table on the server, never from the client (issue 30, item 4).
// A night facility prices each night by the day it starts on, as Japanese inns do: a night before a public
// holiday (休前日) takes the holiday price, a Friday or Saturday night the weekend price, any other the
// weekday price. An hourly facility prices each 15-minute step by its own day: a public holiday, Saturday
// or Sunday, or a weekday. Holidays are the facility's country's public ones (date-holidays).

export type TRates = { weekdayCents: number; weekendCents: number | null; holidayCents: number | null };
export type TDayKind = 'weekday' | 'weekend' | 'holiday';
export type TPricingRules = {
  unit: 'night' | 'hour';
  timeZone: string;
  country: string;
  taxMode: 'included' | 'added';
  /** Basis points: 1000 is 10 %. */
  taxRateBp: number;
};
export type TQuote = {
  /** What each night (or, hourly, each day's steps) costs before tax is added, in the currency's smallest unit. */
  lines: { date: string; kind: TDayKind; units: number; cents: number }[];
  subtotalCents: number;
  taxCents: number;
  amountCents: number;
};

const publicHolidays = new Map<string, Set<string>>();

/** The public holidays of `country` in `year` as `YYYY-MM-DD` (cached; an unknown country has none). */
function holidaysOf(country: string, year: number): Set<string> {
  const key = `${country}:${year}`;
  let days = publicHolidays.get(key);
  if (!days) {
    const calendar = new Holidays(country);
    days = new Set(
      (calendar.getHolidays(year) || []).filter((h) => h.type === 'public').map((h) => h.date.slice(0, 10)),
    );
    publicHolidays.set(key, days);
  }
  return days;
}

export function isPublicHoliday(country: string, date: string): boolean {
  return holidaysOf(country, Number(date.slice(0, 4))).has(date);
}

function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Which price a night starting on `date` (night) or a step on `date` (hour) takes. */
export function dayKind(unit: 'night' | 'hour', country: string, date: string): TDayKind {
  if (unit === 'night') {
    if (isPublicHoliday(country, addDays(date, 1))) return 'holiday';
    const day = weekday(date);
    return day === 5 || day === 6 ? 'weekend' : 'weekday';
  }
  if (isPublicHoliday(country, date)) return 'holiday';
  const day = weekday(date);
  return day === 0 || day === 6 ? 'weekend' : 'weekday';
}

export function priceOf(kind: TDayKind, rates: TRates): number {
  if (kind === 'holiday') return rates.holidayCents ?? rates.weekendCents ?? rates.weekdayCents;
  if (kind === 'weekend') return rates.weekendCents ?? rates.weekdayCents;
  return rates.weekdayCents;
}

function withTax(lines: TQuote['lines'], rules: TPricingRules): TQuote {
  const subtotalCents = lines.reduce((sum, line) => sum + line.cents, 0);
  const taxCents = rules.taxMode === 'added' ? Math.round((subtotalCents * rules.taxRateBp) / 10_000) : 0;
  return { lines, subtotalCents, taxCents, amountCents: subtotalCents + taxCents };
}

/** The price of the nights from `checkIn` to `checkOut` (local dates, check-out after check-in). */
export function quoteNights(rates: TRates, rules: TPricingRules, checkIn: string, checkOut: string): TQuote {
  const lines: TQuote['lines'] = [];
  for (let date = checkIn; date < checkOut; date = addDays(date, 1)) {
    const kind = dayKind('night', rules.country, date);
    lines.push({ date, kind, units: 1, cents: priceOf(kind, rates) });
  }
  return withTax(lines, rules);
}

const STEP_MS = 15 * 60_000;

/**
 * The price of an hourly booking from `startsAt` to `endsAt` (15-minute steps): each step a quarter of its day's
 * hourly price, one line per local day, rounded once per day.
 */
export function quoteHours(rates: TRates, rules: TPricingRules, startsAt: Date, endsAt: Date): TQuote {
  const byDay = new Map<string, number>();
  for (let t = startsAt.getTime(); t < endsAt.getTime(); t += STEP_MS) {
    const date = zonedToday(new Date(t), rules.timeZone);
    byDay.set(date, (byDay.get(date) ?? 0) + 1);
  }
  const lines = [...byDay].map(([date, steps]) => {
    const kind = dayKind('hour', rules.country, date);
    return { date, kind, units: steps / 4, cents: Math.round((priceOf(kind, rates) * steps) / 4) };
  });
  return withTax(lines, rules);
}
