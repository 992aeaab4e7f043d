import { describe, expect, it } from 'vitest';
import { instantToZonedLocal, zonedDaysRange, zonedLocalToInstant } from './zoned-local';

describe('zonedLocalToInstant', () => {
  it('reads a datetime-local value in the facility zone', () => {
    expect(zonedLocalToInstant('2026-12-01T09:30', 'Asia/Tokyo')).toEqual(new Date('2026-12-01T00:30:00Z'));
    expect(zonedLocalToInstant('2026-12-01', 'Asia/Tokyo')).toEqual(new Date('2026-11-30T15:00:00Z'));
    expect(zonedLocalToInstant('2026-07-01T12:00', 'Europe/Amsterdam')).toEqual(new Date('2026-07-01T10:00:00Z'));
  });

  it('resolves a time skipped by daylight saving to just after the gap', () => {
    expect(zonedLocalToInstant('2026-03-29T02:30', 'Europe/Amsterdam')).toEqual(new Date('2026-03-29T01:30:00Z'));
  });

  it('refuses malformed input and unknown zones', () => {
    for (const bad of ['', '2026-02-30', '2026-12-01T24:00', '2026-12-01 09:30', 'yesterday'])
      expect(zonedLocalToInstant(bad, 'UTC')).toBeNull();
    expect(zonedLocalToInstant('2026-12-01T09:30', 'Mars/Olympus')).toBeNull();
  });
});

describe('instantToZonedLocal', () => {
  it('is the inverse for a datetime-local input', () => {
    expect(instantToZonedLocal(new Date('2026-12-01T00:30:00Z'), 'Asia/Tokyo')).toBe('2026-12-01T09:30');
  });
});

describe('zonedDaysRange', () => {
  it('covers whole days, the last one included', () => {
    expect(zonedDaysRange({ fromDay: '2026-12-01', toDay: '2026-12-01', timeZone: 'Asia/Tokyo' })).toEqual({
      from: new Date('2026-11-30T15:00:00Z'),
      to: new Date('2026-12-01T15:00:00Z'),
    });
    expect(zonedDaysRange({ toDay: '2026-12-31', timeZone: 'UTC' })).toEqual({ to: new Date('2027-01-01T00:00:00Z') });
    expect(zonedDaysRange({ fromDay: 'nope', timeZone: 'UTC' })).toEqual({});
  });
});
