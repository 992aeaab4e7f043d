import { offsetMs } from '../time/zoned-day';

/** Local time a stay begins on its check-in day when the facility says nothing else (the column's default). */
export const DEFAULT_CHECK_IN_TIME = '15:00';
/** Local time a stay ends on its check-out day when the facility says nothing else. */
export const DEFAULT_CHECK_OUT_TIME = '10:00';
/** The longest stay the desk books in one go. */
export const MAX_NIGHTS = 30;

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export type CheckInError = 'required' | 'invalid' | 'past';
export type CheckOutError = 'required' | 'invalid' | 'order' | 'tooLong';

export type StayWindow =
  | { ok: true; startsAt: Date; endsAt: Date; nights: number }
  | { ok: false; errors: { checkIn?: CheckInError; checkOut?: CheckOutError } };

/** Days since 1970-01-01 of a `YYYY-MM-DD` calendar date, or null when it is not a real date. */
function dayNumber(date: string): number | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  // Date.UTC rolls 2027-02-30 over to March: such a date is not real.
  if (year < 1970 || back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day)
    return null;
  return ms / DAY_MS;
}

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)(?::00)?$/;

/** Minutes since midnight of a local time `HH:MM` (or `HH:MM:00`), or null when it is not one. */
export function minutesOfDay(time: string): number | null {
  const match = TIME_PATTERN.exec(time.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** `HH:MM` of a Postgres `time` column as Prisma reads it (a Date on 1970-01-01 UTC). */
export function timeOfDay(value: Date): string {
  return value.toISOString().slice(11, 16);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date, for counting nights between two dates (null when unreal). */
export function calendarDay(date: string): number | null {
  return dayNumber(date);
}

/** The `YYYY-MM-DD` date `days` after `date`. */
export function addDays(date: string, days: number): string {
  const day = dayNumber(date);
  if (day === null) throw new RangeError(`not a calendar date: ${date}`);
  return new Date((day + days) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instant at which the wall clock in `timeZone` reads `hour`:`minute` on `date` (YYYY-MM-DD).
 * Two passes over the zone's offset, so a day with a daylight-saving change still lands on the wall-clock hour.
 */
export function zonedWallTime(date: string, hour: number, timeZone: string, minute = 0): Date {
  const day = dayNumber(date);
  if (day === null) throw new RangeError(`not a calendar date: ${date}`);
  const wall = day * DAY_MS + hour * 3_600_000 + minute * 60_000;
  const first = wall - offsetMs(new Date(wall), timeZone);
  return new Date(wall - offsetMs(new Date(first), timeZone));
}

/** Today's date (YYYY-MM-DD) as seen in `timeZone`. */
export function zonedToday(now: Date, timeZone: string): string {
  return new Date(now.getTime() + offsetMs(now, timeZone)).toISOString().slice(0, 10);
}

/** The instant the wall clock in `timeZone` reads `time` (`HH:MM`) on `date`. */
export function zonedDateTime(date: string, time: string, timeZone: string): Date {
  const minutes = minutesOfDay(time);
  if (minutes === null) throw new RangeError(`not a time of day: ${time}`);
  return zonedWallTime(date, Math.floor(minutes / 60), timeZone, minutes % 60);
}

/**
 * Turns a check-in and a check-out date typed at the desk into the stay's `[startsAt, endsAt)` in the
 * facility's time zone (from the facility's check-in time on the first date to its check-out time on
 * the last, local). Refuses a
 * missing or unreal date, a check-in before today (in that zone), a check-out not after the check-in
 * and a stay longer than MAX_NIGHTS. Pure.
 */
export function stayWindow({
  checkIn,
  checkOut,
  timeZone,
  checkInTime = DEFAULT_CHECK_IN_TIME,
  checkOutTime = DEFAULT_CHECK_OUT_TIME,
  now = new Date(),
}: {
  checkIn: string;
  checkOut: string;
  timeZone: string;
  /** The facility's check-in and check-out times, `HH:MM` local. */
  checkInTime?: string;
  checkOutTime?: string;
  now?: Date;
}): StayWindow {
  const errors: { checkIn?: CheckInError; checkOut?: CheckOutError } = {};
  const inDay = checkIn.trim() === '' ? null : dayNumber(checkIn.trim());
  const outDay = checkOut.trim() === '' ? null : dayNumber(checkOut.trim());
  if (checkIn.trim() === '') errors.checkIn = 'required';
  else if (inDay === null) errors.checkIn = 'invalid';
  else if (inDay < (dayNumber(zonedToday(now, timeZone)) ?? 0)) errors.checkIn = 'past';
  if (checkOut.trim() === '') errors.checkOut = 'required';
  else if (outDay === null) errors.checkOut = 'invalid';
  else if (inDay !== null && outDay <= inDay) errors.checkOut = 'order';
  else if (inDay !== null && outDay - inDay > MAX_NIGHTS) errors.checkOut = 'tooLong';
  if (errors.checkIn || errors.checkOut || inDay === null || outDay === null) return { ok: false, errors };
  return {
    ok: true,
    startsAt: zonedDateTime(checkIn.trim(), checkInTime, timeZone),
    endsAt: zonedDateTime(checkOut.trim(), checkOutTime, timeZone),
    nights: outDay - inDay,
  };
}

/**
 * Whether `[startsAt, endsAt)` can still be booked from the desk at `now`: it ends after it starts and
 * after now, and lasts at most MAX_NIGHTS nights (plus a day's slack for check-in/out hours and DST).
 * The server's re-check of the window the form posted back.
 */
export function isBookableWindow(startsAt: Date, endsAt: Date, now: Date = new Date()): boolean {
  const length = endsAt.getTime() - startsAt.getTime();
  return length > 0 && endsAt.getTime() > now.getTime() && length <= (MAX_NIGHTS + 1) * DAY_MS;
}
