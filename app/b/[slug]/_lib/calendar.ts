/**
 * The booking site's calendar arithmetic on plain `YYYY-MM-DD` days (the facility's own dates): a
 * month's grid, day and month steps, today in a zone, and which days a stay may end on. Pure, and
 * with the platform's Intl only: the booking page loads no date library.
 */

export type Level = 'available' | 'few' | 'full' | 'past';
/** One day of `GET …/availability`: each room type's level for the night (or day) starting on `date`. */
export type DayAvailability = { date: string; roomTypes: { id: string; free: number; total: number; level: Level }[] };

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !DAY.test(value)) return false;
  return toDay(fromDay(value)) === value;
}

/** True for a month written `YYYY-MM`. */
export function isMonth(value: unknown): value is string {
  const match = typeof value === 'string' ? MONTH.exec(value) : null;
  return !!match && Number(match[2]) >= 1 && Number(match[2]) <= 12;
}

/** A day's midnight in UTC (ms), the carrier for day arithmetic. */
function fromDay(day: string): number {
  const [, y, m, d] = DAY.exec(day)!;
  return Date.UTC(Number(y), Number(m) - 1, Number(d));
}

function toDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day `n` days after `day` (before, for a negative `n`). */
export function addDays(day: string, n: number): string {
  return toDay(fromDay(day) + n * DAY_MS);
}

/** Whole days from `from` to `to` (nights of a stay from check-in to check-out). */
export function daysBetween(from: string, to: string): number {
  return Math.round((fromDay(to) - fromDay(from)) / DAY_MS);
}

/** The month (`YYYY-MM`) a day is in. */
export const monthOf = (day: string) => day.slice(0, 7);

/** The month `n` months after `month`. */
export function addMonths(month: string, n: number): string {
  const [, y, m] = MONTH.exec(month)!;
  const index = Number(y) * 12 + Number(m) - 1 + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The first and last day of a month: the range the calendar asks availability for. */
export function monthRange(month: string): { from: string; to: string } {
  const from = `${month}-01`;
  return { from, to: addDays(`${addMonths(month, 1)}-01`, -1) };
}

/** Weekday of a day, 0 = Sunday. */
export const weekdayOf = (day: string) => new Date(fromDay(day)).getUTCDay();

/**
 * A month as weeks of seven cells starting on `weekStart` (0 = Sunday, 1 = Monday); cells outside
 * the month are null, so every row has seven cells and the grid has four to six rows.
 */
export function monthGrid(month: string, weekStart: 0 | 1): (string | null)[][] {
  const { from, to } = monthRange(month);
  const length = daysBetween(from, to) + 1;
  const lead = (weekdayOf(from) - weekStart + 7) % 7;
  const cells: (string | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length }, (_, i) => addDays(from, i)),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}

/** Today's date in an IANA zone (the facility's), at `now`. */
export function todayIn(timeZone: string, now: number = Date.now()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const RANK: Record<Level, number> = { past: 0, full: 1, few: 2, available: 3 };

/**
 * One level for a day across room types: the best any type offers (available if one type is, few
 * if one has a few left, full when all are full); past stays past. No types → full.
 */
export function dayLevel(day: DayAvailability | undefined): Level | null {
  if (!day) return null;
  if (day.roomTypes.some((t) => t.level === 'past')) return 'past';
  let best: Level = 'full';
  for (const t of day.roomTypes) if (RANK[t.level] > RANK[best]) best = t.level;
  return best;
}

/** The longest stay the site sells in one go. */
export const MAX_NIGHTS = 30;

/**
 * The last day a stay from `checkIn` may end on: some room type must have every night from
 * `checkIn` up to the check-out free. Nights whose availability is not loaded yet count as free
 * (the quote checks again); at most MAX_NIGHTS nights.
 */
export function latestCheckOut(checkIn: string, byDay: ReadonlyMap<string, DayAvailability>): string {
  const first = byDay.get(checkIn);
  const typeIds = first
    ? first.roomTypes.filter((t) => t.level !== 'full' && t.level !== 'past').map((t) => t.id)
    : null;
  let best = 1;
  for (const id of typeIds ?? [null]) {
    let nights = 1;
    while (nights < MAX_NIGHTS) {
      const day = byDay.get(addDays(checkIn, nights));
      if (day) {
        const level = id === null ? dayLevel(day) : day.roomTypes.find((t) => t.id === id)?.level;
        if (level === 'full' || level === 'past' || level === undefined) break;
      }
      nights++;
    }
    best = Math.max(best, nights);
  }
  return addDays(checkIn, best);
}
