import { describe, expect, it } from 'vitest';
import { endSteps, minutesOf, nowMinutesIn, startSteps, timeSteps, zonedToUtc } from './time-steps';

describe('15-minute steps', () => {
  it('runs from opening to closing, both included', () => {
    const steps = timeSteps('09:00', '10:30');
    expect(steps).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30']);
  });

  it('covers the whole day without opening hours, and rounds an odd opening up to the quarter', () => {
    const day = timeSteps(undefined, undefined);
    expect(day[0]).toBe('00:00');
    expect(day.at(-1)).toBe('24:00');
    expect(day).toHaveLength(97);
    expect(timeSteps('09:10', '10:00')).toEqual(['09:15', '09:30', '09:45', '10:00']);
  });

  it('closes at midnight when the hours run past it', () => {
    expect(timeSteps('23:00', '02:00').at(-1)).toBe('24:00');
  });

  it('offers starts before closing (not yet past today) and ends after the start', () => {
    const steps = timeSteps('09:00', '10:00');
    expect(startSteps(steps, null)).toEqual(['09:00', '09:15', '09:30', '09:45']);
    expect(startSteps(steps, minutesOf('09:20'))).toEqual(['09:30', '09:45']);
    expect(endSteps(steps, '09:30')).toEqual(['09:45', '10:00']);
    // At most 12 hours (the API's limit), or what the caller says.
    expect(endSteps(timeSteps('06:00', '23:00'), '07:00').at(-1)).toBe('19:00');
    expect(endSteps(steps, '09:00', 30)).toEqual(['09:15', '09:30']);
  });

  it('reads times and refuses what is not one', () => {
    expect(minutesOf('24:00')).toBe(1440);
    expect(minutesOf('24:15')).toBeNull();
    expect(minutesOf('9:00')).toBeNull();
  });
});

describe("the facility's wall clock as UTC", () => {
  it('converts Tokyo and UTC times', () => {
    expect(zonedToUtc('2026-12-10', '10:00', 'Asia/Tokyo')).toBe('2026-12-10T01:00:00Z');
    expect(zonedToUtc('2026-12-10', '00:15', 'Asia/Tokyo')).toBe('2026-12-09T15:15:00Z');
    expect(zonedToUtc('2026-12-10', '24:00', 'UTC')).toBe('2026-12-11T00:00:00Z');
  });

  it('keeps the local time on both sides of a daylight-saving change', () => {
    // Berlin moves from +01:00 to +02:00 on 29 March 2026 at 02:00.
    expect(zonedToUtc('2026-03-28', '10:00', 'Europe/Berlin')).toBe('2026-03-28T09:00:00Z');
    expect(zonedToUtc('2026-03-29', '10:00', 'Europe/Berlin')).toBe('2026-03-29T08:00:00Z');
  });

  it('reads the minutes after midnight in a zone', () => {
    expect(nowMinutesIn('Asia/Tokyo', Date.parse('2026-12-03T16:30:00Z'))).toBe(90);
  });
});
