import { offsetMs } from '../time/zoned-day';
import { calendarDay, minutesOfDay, zonedDateTime, zonedToday } from './stay-window';

const HOUR_MS = 3_600_000;

/** An hourly facility's opening hours, `HH:MM` local to `timeZone`. */
export type OpeningHours = { timeZone: string; opensAt: string; closesAt: string };

/** Why a window cannot be booked in an hourly facility. */
export type HourlyRefusal = 'order' | 'not_whole_hours' | 'outside_opening_hours';

/**
 * Whether `[startsAt, endsAt)` fits an hourly facility: it starts on the hour (local), lasts whole
 * hours and lies within one day's opening hours, in the facility's zone. Null when it does. Pure.
 */
export function hourlyRefusal(startsAt: Date, endsAt: Date, hours: OpeningHours): HourlyRefusal | null {
  if (endsAt.getTime() <= startsAt.getTime()) return 'order';
  const localStart = startsAt.getTime() + offsetMs(startsAt, hours.timeZone);
  if (localStart % HOUR_MS !== 0 || (endsAt.getTime() - startsAt.getTime()) % HOUR_MS !== 0) return 'not_whole_hours';
  const day = zonedToday(startsAt, hours.timeZone);
  const open = zonedDateTime(day, hours.opensAt, hours.timeZone);
  const close = zonedDateTime(day, hours.closesAt, hours.timeZone);
  return startsAt < open || endsAt > close ? 'outside_opening_hours' : null;
}

export type HourlyFormErrors = {
  date?: 'required' | 'invalid' | 'past';
  start?: 'required' | 'invalid' | 'notWholeHour' | 'outsideHours' | 'past';
  hours?: 'required' | 'invalid' | 'outsideHours';
};

export type HourlyWindow =
  { ok: true; startsAt: Date; endsAt: Date; hours: number } | { ok: false; errors: HourlyFormErrors };

/**
 * Turns a date, a start time (`HH:MM`) and a number of hours typed at the desk into a booking's
 * `[startsAt, endsAt)` in the facility's zone, refusing each field that is missing or unreal, a start
 * not on the hour or in the past, and a booking that does not fit within the opening hours. Pure.
 */
export function hourlyWindow({
  date,
  start,
  hours,
  opening,
  now = new Date(),
}: {
  date: string;
  start: string;
  hours: string;
  opening: OpeningHours;
  now?: Date;
}): HourlyWindow {
  const errors: HourlyFormErrors = {};
  const day = date.trim() === '' ? null : calendarDay(date.trim());
  const startMinutes = start.trim() === '' ? null : minutesOfDay(start);
  const count = /^\d{1,2}$/.test(hours.trim()) ? Number(hours.trim()) : null;
  if (date.trim() === '') errors.date = 'required';
  else if (day === null) errors.date = 'invalid';
  else if (day < (calendarDay(zonedToday(now, opening.timeZone)) ?? 0)) errors.date = 'past';
  if (start.trim() === '') errors.start = 'required';
  else if (startMinutes === null) errors.start = 'invalid';
  else if (startMinutes % 60 !== 0) errors.start = 'notWholeHour';
  if (hours.trim() === '') errors.hours = 'required';
  else if (count === null || count < 1) errors.hours = 'invalid';
  if (errors.date || errors.start || errors.hours || count === null) return { ok: false, errors };
  const startsAt = zonedDateTime(date.trim(), start, opening.timeZone);
  const endsAt = new Date(startsAt.getTime() + count * HOUR_MS);
  const opens = minutesOfDay(opening.opensAt) ?? 0;
  const closes = minutesOfDay(opening.closesAt) ?? 24 * 60;
  if (startMinutes! < opens || startMinutes! >= closes) return { ok: false, errors: { start: 'outsideHours' } };
  if (hourlyRefusal(startsAt, endsAt, opening) !== null) return { ok: false, errors: { hours: 'outsideHours' } };
  if (startsAt < now) return { ok: false, errors: { start: 'past' } };
  return { ok: true, startsAt, endsAt, hours: count };
}
