import { AppError } from '../errors';
import { offsetMs } from '../time/zoned-day';
import { addDays, calendarDay, MAX_NIGHTS, zonedDateTime, zonedToday } from '../bookings/stay-window';
import type { PublicFacility } from './public-facility';

const STEP_MS = 15 * 60_000;
/** The longest hourly booking the site takes. */
export const MAX_HOURLY_MS = 12 * 3_600_000;

/** What a guest asks for: check-in and check-out days (night facility) or a start and an end (hourly). */
export type TStayChoice = { checkIn: string; checkOut: string } | { startsAt: string; endsAt: string };

export type TBookingWindow = {
  startsAt: Date;
  endsAt: Date;
  /** Night facilities: the local days; hourly: null. */
  checkIn: string | null;
  checkOut: string | null;
};

function refuse(path: string, message: string): AppError {
  return new AppError('invalid_request', message, { issues: [{ path, message, code: 'custom' }] });
}

/**
 * The stay's `[startsAt, endsAt)` for a guest's choice on a facility's site, or 400 `invalid_request`: a night
 * facility takes days (from the check-in time of the first to the check-out time of the last, at most
 * MAX_NIGHTS nights, not before today there); an hourly one 15-minute steps inside one day's opening hours,
 * not in the past, at most 12 hours. Pure.
 */
export function bookingWindow(facility: PublicFacility, choice: TStayChoice, now: Date = new Date()): TBookingWindow {
  if (facility.unit === 'night') {
    if (!('checkIn' in choice))
      throw refuse('checkIn', 'This facility is booked by the night: send checkIn and checkOut.');
    const first = calendarDay(choice.checkIn);
    const last = calendarDay(choice.checkOut);
    if (first === null) throw refuse('checkIn', 'checkIn must be a date (YYYY-MM-DD).');
    if (last === null) throw refuse('checkOut', 'checkOut must be a date (YYYY-MM-DD).');
    if (choice.checkIn < zonedToday(now, facility.timeZone)) throw refuse('checkIn', 'checkIn is in the past.');
    if (last <= first) throw refuse('checkOut', 'checkOut must be after checkIn.');
    if (last - first > MAX_NIGHTS) throw refuse('checkOut', `At most ${MAX_NIGHTS} nights can be booked at once.`);
    return {
      startsAt: zonedDateTime(choice.checkIn, facility.checkInTime, facility.timeZone),
      endsAt: zonedDateTime(choice.checkOut, facility.checkOutTime, facility.timeZone),
      checkIn: choice.checkIn,
      checkOut: choice.checkOut,
    };
  }
  if (!('startsAt' in choice))
    throw refuse('startsAt', 'This facility is booked by the hour: send startsAt and endsAt.');
  const startsAt = new Date(choice.startsAt);
  const endsAt = new Date(choice.endsAt);
  if (Number.isNaN(startsAt.getTime())) throw refuse('startsAt', 'startsAt must be an RFC 3339 time.');
  if (Number.isNaN(endsAt.getTime())) throw refuse('endsAt', 'endsAt must be an RFC 3339 time.');
  if (endsAt <= startsAt) throw refuse('endsAt', 'endsAt must be after startsAt.');
  const local = startsAt.getTime() + offsetMs(startsAt, facility.timeZone);
  if (local % STEP_MS !== 0 || (endsAt.getTime() - startsAt.getTime()) % STEP_MS !== 0)
    throw refuse('startsAt', 'Times go in 15-minute steps.');
  if (endsAt.getTime() - startsAt.getTime() > MAX_HOURLY_MS)
    throw refuse('endsAt', 'At most 12 hours can be booked at once.');
  if (startsAt < now) throw refuse('startsAt', 'startsAt is in the past.');
  const day = zonedToday(startsAt, facility.timeZone);
  const opens = zonedDateTime(day, facility.opensAt ?? '00:00', facility.timeZone);
  const closesAt = facility.closesAt && facility.closesAt > (facility.opensAt ?? '00:00') ? facility.closesAt : null;
  const closes = closesAt
    ? zonedDateTime(day, closesAt, facility.timeZone)
    : zonedDateTime(addDays(day, 1), '00:00', facility.timeZone);
  if (startsAt < opens || endsAt > closes) throw refuse('startsAt', 'The time is outside the opening hours.');
  return { startsAt, endsAt, checkIn: null, checkOut: null };
}
