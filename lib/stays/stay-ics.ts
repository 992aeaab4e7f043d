/**
 * The .ics (RFC 5545) of a stay: one VEVENT the guest's calendar can import. It carries the room,
 * the window and the link to the key page, never a PIN. The same stay always gives the same UID, and
 * SEQUENCE grows with each change, so a calendar updates the event instead of adding a second one.
 */
export type StayIcsInput = {
  reservationId: string;
  /** Bumped when the stay changes (new dates, a move): calendars replace the older copy. */
  sequence?: number;
  startsAt: Date;
  endsAt: Date;
  summary: string;
  location?: string | null;
  description?: string | null;
  url?: string | null;
  /** The host part of the UID, e.g. the app's host name. */
  domain?: string;
  now?: Date;
};

function icsTime(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

/** Escapes TEXT values (RFC 5545 §3.3.11). */
export function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    const limit = parts.length === 0 ? 75 : 74;
    if (bytes + size > limit) {
      parts.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function stayIcs(input: StayIcsInput): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//UnlockOS//Stay//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${input.reservationId}@${input.domain ?? 'unlockos'}`,
    `SEQUENCE:${input.sequence ?? 0}`,
    `DTSTAMP:${icsTime(input.now ?? new Date())}`,
    `DTSTART:${icsTime(input.startsAt)}`,
    `DTEND:${icsTime(input.endsAt)}`,
    `SUMMARY:${icsText(input.summary)}`,
    ...(input.location ? [`LOCATION:${icsText(input.location)}`] : []),
    ...(input.description ? [`DESCRIPTION:${icsText(input.description)}`] : []),
    ...(input.url ? [`URL:${input.url}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
