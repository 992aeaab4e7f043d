import { AppError } from '../errors';
import { addDays, calendarDay, MAX_NIGHTS, zonedDateTime, zonedToday } from '../bookings/stay-window';
import { quoteHours, quoteNights, type TPricingRules, type TRates } from '../booking-site/pricing';
import { offsetMs } from '../time/zoned-day';

// A guest's extension of their stay (issue 31, item 4; decision 029), priced and checked without the database:
// the added time only, from the rate table of the stay's room, never a price from the client.

const STEP_MS = 15 * 60_000;
/** How many later check-out days the guest page offers (the API takes up to MAX_NIGHTS added nights). */
export const OFFERED_NIGHTS = 14;

export type TExtensionRules = TPricingRules & {
  /** "HH:MM" in the facility's zone. */
  checkOutTime: string;
  opensAt: string | null;
  closesAt: string | null;
};

/** What the stay is now: its end and the latest it could end on its room (null: nothing follows). */
export type TExtendableStay = { endsAt: Date; latestEndsAt: Date | null };

/** What a guest sends: the new end, or (night facilities) the new check-out day. */
export type TExtensionChoice = { endsAt: string } | { checkOut: string };

export type TExtensionOption = { endsAt: string; amountCents: number };

function refuse(path: string, message: string): AppError {
  return new AppError('invalid_request', message, { issues: [{ path, message, code: 'custom' }] });
}

/** The end of the opening hours of the day an hourly stay ends on. */
function closingOf(stay: TExtendableStay, rules: TExtensionRules): Date {
  const day = zonedToday(new Date(stay.endsAt.getTime() - 1), rules.timeZone);
  const opens = rules.opensAt ?? '00:00';
  return rules.closesAt && rules.closesAt > opens
    ? zonedDateTime(day, rules.closesAt, rules.timeZone)
    : zonedDateTime(addDays(day, 1), '00:00', rules.timeZone);
}

/**
 * The new end a guest asked for, or 400 `invalid_request`: a night facility takes the check-out time of a later day
 * (as `endsAt`, or the day as `checkOut`), at most MAX_NIGHTS nights more; an hourly one a later 15-minute step inside
 * the opening hours of the day the stay ends on. An end not after the stay's is refused. Pure.
 */
export function extensionEnd(stay: TExtendableStay, rules: TExtensionRules, choice: TExtensionChoice): Date {
  let endsAt: Date;
  if ('checkOut' in choice) {
    if (rules.unit !== 'night') throw refuse('checkOut', 'This facility is booked by the hour: send endsAt.');
    if (calendarDay(choice.checkOut) === null) throw refuse('checkOut', 'checkOut must be a date (YYYY-MM-DD).');
    endsAt = zonedDateTime(choice.checkOut, rules.checkOutTime, rules.timeZone);
  } else {
    endsAt = new Date(choice.endsAt);
    if (Number.isNaN(endsAt.getTime())) throw refuse('endsAt', 'endsAt must be an RFC 3339 time.');
  }
  if (endsAt <= stay.endsAt) throw refuse('endsAt', 'The new end must be after the stay’s end.');
  if (rules.unit === 'night') {
    const day = zonedToday(endsAt, rules.timeZone);
    if (zonedDateTime(day, rules.checkOutTime, rules.timeZone).getTime() !== endsAt.getTime())
      throw refuse('endsAt', `endsAt must be the check-out time (${rules.checkOutTime}) of a later day.`);
    const from = zonedToday(stay.endsAt, rules.timeZone);
    if (day <= from) throw refuse('endsAt', 'The new check-out must be on a later day.');
    if (calendarDay(day)! - calendarDay(from)! > MAX_NIGHTS)
      throw refuse('endsAt', `At most ${MAX_NIGHTS} nights can be added at once.`);
    return endsAt;
  }
  const local = endsAt.getTime() + offsetMs(endsAt, rules.timeZone);
  if (local % STEP_MS !== 0) throw refuse('endsAt', 'Times go in 15-minute steps.');
  if (endsAt > closingOf(stay, rules)) throw refuse('endsAt', 'The time is outside the opening hours.');
  return endsAt;
}

/** The price of the added time only: the nights from the old check-out day to the new one, or the added steps. */
export function extensionAmount(stay: TExtendableStay, rules: TExtensionRules, rates: TRates, endsAt: Date): number {
  if (rules.unit === 'night') {
    const from = zonedToday(stay.endsAt, rules.timeZone);
    return quoteNights(rates, rules, from, zonedToday(endsAt, rules.timeZone)).amountCents;
  }
  return quoteHours(rates, rules, stay.endsAt, endsAt).amountCents;
}

/**
 * The ends the stay can take on its room with their prices, earliest first: later check-out days (at most `max`) or
 * 15-minute steps until closing, never past the latest end (the next stay's hold).
 */
export function extensionOptions(
  stay: TExtendableStay,
  rules: TExtensionRules,
  rates: TRates,
  max = rules.unit === 'night' ? OFFERED_NIGHTS : 96,
): TExtensionOption[] {
  const ends: Date[] = [];
  if (rules.unit === 'night') {
    const from = zonedToday(stay.endsAt, rules.timeZone);
    for (let n = 1; n <= Math.min(max, MAX_NIGHTS); n++) {
      ends.push(zonedDateTime(addDays(from, n), rules.checkOutTime, rules.timeZone));
    }
  } else {
    const closes = closingOf(stay, rules);
    const local = stay.endsAt.getTime() + offsetMs(stay.endsAt, rules.timeZone);
    let t = stay.endsAt.getTime() + (STEP_MS - (((local % STEP_MS) + STEP_MS) % STEP_MS) || STEP_MS);
    for (; t <= closes.getTime() && ends.length < max; t += STEP_MS) ends.push(new Date(t));
  }
  return ends
    .filter((end) => end > stay.endsAt && (!stay.latestEndsAt || end <= stay.latestEndsAt))
    .map((end) => ({ endsAt: end.toISOString(), amountCents: extensionAmount(stay, rules, rates, end) }));
}

/** The latest end the guest could ask for now (what a 409 `room_unavailable` says): the stay's own end if none. */
export function latestExtensionEnd(stay: TExtendableStay, rules: TExtensionRules, rates: TRates): Date {
  const options = extensionOptions(stay, rules, rates, rules.unit === 'night' ? MAX_NIGHTS : 96);
  return options.length > 0 ? new Date(options[options.length - 1]!.endsAt) : stay.endsAt;
}
