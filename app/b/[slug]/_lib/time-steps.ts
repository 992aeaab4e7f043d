/**
 * Hourly bookings: the 15-minute steps of a day inside opening hours, and a wall-clock time in the
 * facility's zone as the UTC instant the API takes. Pure, Intl only.
 */

export const STEP_MINUTES = 15;
const HHMM = /^([01]\d|2[0-4]):([0-5]\d)$/;

/** Minutes after midnight of `HH:MM` ("24:00" is 1440), or null when it is not a time. */
export function minutesOf(time: string | null | undefined): number | null {
  const match = time ? HHMM.exec(time) : null;
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 1440 ? minutes : null;
}

/** `HH:MM` of minutes after midnight. */
export function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Every 15-minute step from opening to closing, both included, as `HH:MM` (a missing or unusable
 * opening time is midnight, a closing time the end of the day). Opening hours that run past
 * midnight (22:00–02:00) end the day at 24:00. Steps start at the first quarter hour at or after opening.
 */
export function timeSteps(opensAt?: string | null, closesAt?: string | null): string[] {
  const open = minutesOf(opensAt) ?? 0;
  let close = minutesOf(closesAt) ?? 1440;
  if (close <= open) close = 1440;
  const steps: string[] = [];
  for (let m = Math.ceil(open / STEP_MINUTES) * STEP_MINUTES; m <= close; m += STEP_MINUTES) steps.push(timeOf(m));
  return steps;
}

/** The start times a guest can pick: every step but the last, and on today only those not yet past. */
export function startSteps(steps: string[], nowMinutes: number | null): string[] {
  return steps.slice(0, -1).filter((s) => nowMinutes === null || minutesOf(s)! > nowMinutes);
}

/** The longest hourly booking the API quotes. */
export const MAX_HOURS = 12;

/** The end times after a start: every later step, at most `maxMinutes` after it. */
export function endSteps(steps: string[], start: string, maxMinutes = MAX_HOURS * 60): string[] {
  const from = minutesOf(start) ?? 0;
  return steps.filter((s) => minutesOf(s)! > from && minutesOf(s)! <= from + maxMinutes);
}

/** The zone's offset from UTC at an instant, in minutes (Tokyo: +540). */
function offsetMinutes(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return Math.round((local - Math.floor(at / 1000) * 1000) / 60_000);
}

/**
 * The UTC instant (RFC 3339, `…Z`) of a wall-clock time on a day in `timeZone`; "24:00" is the next
 * midnight. Across a daylight-saving change the offset is looked up twice, so the answer is the
 * instant whose local time is the one given (or, in a skipped hour, just after it).
 */
export function zonedToUtc(day: string, time: string, timeZone: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d) + minutesOf(time)! * 60_000;
  let at = guess - offsetMinutes(timeZone, guess) * 60_000;
  at = guess - offsetMinutes(timeZone, at) * 60_000;
  return new Date(at).toISOString().replace('.000Z', 'Z');
}

/** Minutes after midnight in `timeZone` at `now`. */
export function nowMinutesIn(timeZone: string, now: number = Date.now()): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' })
    .formatToParts(now)
    .filter((p) => p.type === 'hour' || p.type === 'minute')
    .map((p) => Number(p.value));
  return (parts[0]! % 24) * 60 + parts[1]!;
}
