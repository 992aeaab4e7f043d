import { describe, expect, it } from 'vitest';
import { zonedDayBounds } from './zoned-day';

describe('zonedDayBounds', () => {
  it("finds the facility's own calendar day", () => {
    // 20:00 UTC on 30 Nov is already 1 Dec in Tokyo.
    expect(zonedDayBounds(new Date('2026-11-30T20:00:00Z'), 'Asia/Tokyo')).toEqual({
      start: new Date('2026-11-30T15:00:00Z'),
      end: new Date('2026-12-01T15:00:00Z'),
    });
    expect(zonedDayBounds(new Date('2026-11-30T20:00:00Z'), 'UTC')).toEqual({
      start: new Date('2026-11-30T00:00:00Z'),
      end: new Date('2026-12-01T00:00:00Z'),
    });
  });

  it('handles a day with a daylight-saving change (23 hours long)', () => {
    const { start, end } = zonedDayBounds(new Date('2026-03-29T12:00:00Z'), 'Europe/Amsterdam');
    expect(start).toEqual(new Date('2026-03-28T23:00:00Z'));
    expect(end).toEqual(new Date('2026-03-29T22:00:00Z'));
  });
});
