import { describe, expect, it } from 'vitest';
import { createFormatter } from 'next-intl';
import { formatDateTime, formatDateTimeRange, formats, formatTimeToday } from './formats';

const instants = [new Date('2026-11-30T06:00:00Z'), new Date('2027-03-14T17:45:00Z')];
const zones = ['Asia/Tokyo', 'America/New_York', 'UTC'];

describe('formatDateTime', () => {
  it('writes what next-intl writes for every named format, locale and zone', () => {
    for (const locale of ['en-GB', 'ja-JP']) {
      const format = createFormatter({ locale, formats, timeZone: 'UTC' });
      for (const style of Object.keys(formats.dateTime) as (keyof typeof formats.dateTime)[])
        for (const timeZone of zones)
          for (const at of instants) {
            const expected = format.dateTime(at, style, { timeZone });
            expect(formatDateTime(at, style, { locale, timeZone }), `${locale} ${style} ${timeZone}`).toBe(expected);
            expect(formatDateTime(at.toISOString(), style, { locale, timeZone })).toBe(expected);
          }
    }
  });

  it('writes ranges as next-intl writes them, a shared day once, and reuses nothing across zones', () => {
    const [from, to] = instants as [Date, Date];
    const sameDay = new Date(from.getTime() + 3 * 3600_000);
    for (const locale of ['en-GB', 'ja-JP']) {
      const format = createFormatter({ locale, formats, timeZone: 'UTC' });
      for (const style of Object.keys(formats.dateTime) as (keyof typeof formats.dateTime)[])
        for (const timeZone of zones)
          for (const end of [to, sameDay])
            expect(formatDateTimeRange(from, end, style, { locale, timeZone }), `${locale} ${style} ${timeZone}`).toBe(
              format.dateTimeRange(from, end, style, { timeZone }),
            );
    }
    expect(formatDateTime(from, 'time', { locale: 'en-GB', timeZone: 'Asia/Tokyo' })).toBe('15:00');
    expect(formatDateTime(from, 'time', { locale: 'en-GB', timeZone: 'America/New_York' })).toBe('01:00');
  });

  it('shows the facility’s time, not the server’s', () => {
    expect(formatDateTime('2026-11-30T06:00:00Z', 'stamp', { locale: 'en-GB', timeZone: 'Asia/Tokyo' })).toBe(
      '30 Nov 2026, 15:00',
    );
  });

  it('falls back to the raw value for an unusable zone, like next-intl', () => {
    const at = new Date('2026-11-30T06:00:00Z');
    expect(formatDateTime(at, 'stamp', { locale: 'en-GB', timeZone: 'Not/AZone' })).toBe(String(at));
    expect(formatDateTimeRange(at, at, 'stamp', { locale: 'en-GB', timeZone: 'Not/AZone' })).toBe(
      `${String(at)} – ${String(at)}`,
    );
  });

  it('writes a time of today alone, and another day’s with its day, by the zone’s day', () => {
    // 23:30 on 30 November in Tokyo is 14:30 UTC: "today" there, but not at 00:30 on 1 December.
    const at = new Date('2026-11-30T14:30:00Z');
    const tokyo = { locale: 'en-GB', timeZone: 'Asia/Tokyo' };
    expect(formatTimeToday(at, new Date('2026-11-30T14:45:00Z'), tokyo)).toBe('23:30');
    expect(formatTimeToday(at, new Date('2026-11-30T15:30:00Z'), tokyo)).toBe('30 Nov 2026, 23:30');
    expect(formatTimeToday(at, new Date('2026-11-30T15:30:00Z'), { locale: 'en-GB', timeZone: 'UTC' })).toBe('14:30');
    expect(formatTimeToday(at, new Date('2026-11-30T14:45:00Z'), { locale: 'ja-JP', timeZone: 'Asia/Tokyo' })).toBe(
      '23:30',
    );
  });
});
