import { describe, expect, it } from 'vitest';
import { foldLine, icsText, stayIcs } from './stay-ics';

describe('stayIcs', () => {
  const input = {
    reservationId: '7b0c4c1e-0000-4000-8000-000000000001',
    startsAt: new Date('2026-12-01T06:00:00Z'),
    endsAt: new Date('2026-12-03T01:00:00Z'),
    summary: 'Room 102, Hotel Sakura',
    location: '1-2-3 Asakusa; Taito, Tokyo',
    url: 'https://example.test/k/abc',
    now: new Date('2026-11-30T00:00:00Z'),
  };

  it('writes one event with the stay window in UTC, CRLF line ends and escaped text', () => {
    const ics = stayIcs(input);
    expect(ics.split('\r\n')).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//UnlockOS//Stay//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
      'UID:7b0c4c1e-0000-4000-8000-000000000001@unlockos',
      'SEQUENCE:0',
      'DTSTAMP:20261130T000000Z',
      'DTSTART:20261201T060000Z',
      'DTEND:20261203T010000Z',
      'SUMMARY:Room 102\\, Hotel Sakura',
      'LOCATION:1-2-3 Asakusa\\; Taito\\, Tokyo',
      'URL:https://example.test/k/abc',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ]);
  });

  it('escapes backslashes and new lines', () => {
    expect(icsText('a\\b\nc')).toBe('a\\\\b\\nc');
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const line = 'DESCRIPTION:' + 'ご案内'.repeat(20);
    const folded = foldLine(line).split('\r\n ');
    expect(folded.length).toBeGreaterThan(1);
    for (const part of folded) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(folded.join('')).toBe(line);
  });
});
