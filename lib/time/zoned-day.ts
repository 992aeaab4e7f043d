/** Milliseconds the wall clock in `timeZone` is ahead of UTC at `at` (whole seconds). */
export function offsetMs(at: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instants that begin and end the calendar day containing `at`, as seen in `timeZone`. */
export function zonedDayBounds(at: Date, timeZone: string): { start: Date; end: Date } {
  const local = new Date(at.getTime() + offsetMs(at, timeZone));
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const start = new Date(midnight - offsetMs(new Date(midnight), timeZone));
  const nextMidnight = midnight + 86_400_000;
  const end = new Date(nextMidnight - offsetMs(new Date(nextMidnight), timeZone));
  return { start, end };
}
