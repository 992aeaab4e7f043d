import { describe, expect, it } from 'vitest';
import { isBookableWindow, stayWindow, zonedToday, zonedWallTime } from './stay-window';

const NOW = new Date('2027-01-05T03:00:00Z'); // 12:00 on 5 Jan in Tokyo

describe('zonedWallTime', () => {
  it('reads a wall-clock hour in the facility zone', () => {
    expect(zonedWallTime('2027-01-10', 15, 'Asia/Tokyo')).toEqual(new Date('2027-01-10T06:00:00Z'));
    expect(zonedWallTime('2027-01-11', 11, 'Asia/Tokyo')).toEqual(new Date('2027-01-11T02:00:00Z'));
    expect(zonedWallTime('2027-01-10', 15, 'UTC')).toEqual(new Date('2027-01-10T15:00:00Z'));
    expect(zonedWallTime('2027-01-10', 15, 'America/New_York')).toEqual(new Date('2027-01-10T20:00:00Z'));
  });

  it('keeps the wall-clock hour across daylight-saving changes', () => {
    // Amsterdam moves to CEST (UTC+2) on 28 March 2027 at 02:00 and back on 31 October.
    expect(zonedWallTime('2027-03-27', 15, 'Europe/Amsterdam')).toEqual(new Date('2027-03-27T14:00:00Z'));
    expect(zonedWallTime('2027-03-28', 15, 'Europe/Amsterdam')).toEqual(new Date('2027-03-28T13:00:00Z'));
    expect(zonedWallTime('2027-10-31', 11, 'Europe/Amsterdam')).toEqual(new Date('2027-10-31T10:00:00Z'));
  });
});

describe('zonedToday', () => {
  it("is the facility's own date", () => {
    // 20:00 UTC on 4 Jan is already 5 Jan in Tokyo.
    expect(zonedToday(new Date('2027-01-04T20:00:00Z'), 'Asia/Tokyo')).toBe('2027-01-05');
    expect(zonedToday(new Date('2027-01-04T20:00:00Z'), 'UTC')).toBe('2027-01-04');
  });
});

describe('stayWindow', () => {
  it('turns dates into the facility default check-in 15:00 and check-out 10:00 local', () => {
    expect(stayWindow({ checkIn: '2027-01-10', checkOut: '2027-01-12', timeZone: 'Asia/Tokyo', now: NOW })).toEqual({
      ok: true,
      startsAt: new Date('2027-01-10T06:00:00Z'),
      endsAt: new Date('2027-01-12T01:00:00Z'),
      nights: 2,
    });
  });

  it("uses the facility's own check-in and check-out times, minutes included, in its zone", () => {
    expect(
      stayWindow({
        checkIn: '2027-01-10',
        checkOut: '2027-01-11',
        timeZone: 'America/New_York',
        checkInTime: '16:30',
        checkOutTime: '11:00',
        now: NOW,
      }),
    ).toEqual({
      ok: true,
      startsAt: new Date('2027-01-10T21:30:00Z'),
      endsAt: new Date('2027-01-11T16:00:00Z'),
      nights: 1,
    });
  });

  it('accepts a check-in today in the facility zone', () => {
    const result = stayWindow({ checkIn: '2027-01-05', checkOut: '2027-01-06', timeZone: 'Asia/Tokyo', now: NOW });
    expect(result.ok).toBe(true);
  });

  it('names what is wrong with each date', () => {
    expect(stayWindow({ checkIn: '', checkOut: '', timeZone: 'Asia/Tokyo', now: NOW })).toEqual({
      ok: false,
      errors: { checkIn: 'required', checkOut: 'required' },
    });
    expect(stayWindow({ checkIn: '2027-02-30', checkOut: 'soon', timeZone: 'Asia/Tokyo', now: NOW })).toEqual({
      ok: false,
      errors: { checkIn: 'invalid', checkOut: 'invalid' },
    });
    expect(stayWindow({ checkIn: '2027-01-04', checkOut: '2027-01-06', timeZone: 'Asia/Tokyo', now: NOW })).toEqual({
      ok: false,
      errors: { checkIn: 'past' },
    });
    expect(stayWindow({ checkIn: '2027-01-10', checkOut: '2027-01-10', timeZone: 'Asia/Tokyo', now: NOW })).toEqual({
      ok: false,
      errors: { checkOut: 'order' },
    });
    expect(stayWindow({ checkIn: '2027-01-10', checkOut: '2027-01-08', timeZone: 'Asia/Tokyo', now: NOW })).toEqual({
      ok: false,
      errors: { checkOut: 'order' },
    });
  });

  it('allows at most 30 nights', () => {
    expect(
      stayWindow({ checkIn: '2027-01-10', checkOut: '2027-02-09', timeZone: 'Asia/Tokyo', now: NOW }),
    ).toMatchObject({ ok: true, nights: 30 });
    expect(stayWindow({ checkIn: '2027-01-10', checkOut: '2027-02-10', timeZone: 'Asia/Tokyo', now: NOW })).toEqual({
      ok: false,
      errors: { checkOut: 'tooLong' },
    });
  });
});

describe('isBookableWindow', () => {
  it('accepts a window the form produced', () => {
    expect(isBookableWindow(new Date('2027-01-10T06:00:00Z'), new Date('2027-02-09T02:00:00Z'), NOW)).toBe(true);
  });

  it('refuses an empty, reversed, finished or over-long window', () => {
    expect(isBookableWindow(new Date('2027-01-10T06:00:00Z'), new Date('2027-01-10T06:00:00Z'), NOW)).toBe(false);
    expect(isBookableWindow(new Date('2027-01-10T06:00:00Z'), new Date('2027-01-09T06:00:00Z'), NOW)).toBe(false);
    expect(isBookableWindow(new Date('2027-01-01T06:00:00Z'), new Date('2027-01-02T02:00:00Z'), NOW)).toBe(false);
    expect(isBookableWindow(new Date('2027-01-10T06:00:00Z'), new Date('2027-02-12T02:00:00Z'), NOW)).toBe(false);
  });
});
