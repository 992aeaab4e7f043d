import { offsetMs } from './zoned-day';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;

/** Wall-clock milliseconds (as if UTC) of `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`, or null when it is not a real date and time. */
function wallClock(local: string): number | null {
  const m = LOCAL.exec(local);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4] ?? '00', m[5] ?? '00'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (hour > 23 || minute > 59) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Rejects 2026-02-30 and the like, which Date.UTC would roll over.
  return new Date(wall).toISOString().slice(0, 10) === local.slice(0, 10) ? wall : null;
}

/**
 * The instant a wall-clock time (`YYYY-MM-DD`, midnight, or `YYYY-MM-DDTHH:mm` as a datetime-local
 * input sends it) denotes in an IANA time zone; null for anything malformed. A time skipped by a
 * daylight-saving change resolves to the instant just after the gap.
 */
export function zonedLocalToInstant(local: string, timeZone: string): Date | null {
  const wall = wallClock(local);
  if (wall === null) return null;
  try {
    const first = wall - offsetMs(new Date(wall), timeZone);
    return new Date(wall - offsetMs(new Date(first), timeZone));
  } catch {
    return null;
  }
}

/** The wall-clock time of an instant in a time zone as `YYYY-MM-DDTHH:mm` (a datetime-local input's value). */
export function instantToZonedLocal(at: Date, timeZone: string): string {
  return new Date(at.getTime() + offsetMs(at, timeZone)).toISOString().slice(0, 16);
}

/** The instants bounding the calendar days `fromDay` … `toDay` (both inclusive, `YYYY-MM-DD`) in a time zone. */
export function zonedDaysRange(input: { fromDay?: string; toDay?: string; timeZone: string }): {
  from?: Date;
  to?: Date;
} {
  const from = input.fromDay ? zonedLocalToInstant(input.fromDay, input.timeZone) : null;
  const toWall = input.toDay ? wallClock(input.toDay) : null;
  const to =
    toWall === null
      ? null
      : zonedLocalToInstant(new Date(toWall + 86_400_000).toISOString().slice(0, 10), input.timeZone);
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
