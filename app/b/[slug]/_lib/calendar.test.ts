import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dayLevel,
  daysBetween,
  isDay,
  isMonth,
  latestCheckOut,
  MAX_NIGHTS,
  monthGrid,
  monthRange,
  todayIn,
  type DayAvailability,
  type Level,
} from './calendar';

const day = (date: string, ...levels: Level[]): DayAvailability => ({
  date,
  roomTypes: levels.map((level, i) => ({ id: `t${i}`, free: level === 'full' ? 0 : 1, total: 2, level })),
});

describe('month grid', () => {
  it('lays December 2026 out in Monday-first weeks, with empty cells around the month', () => {
    const grid = monthGrid('2026-12', 1);
    // 1 December 2026 is a Tuesday: one empty Monday cell first.
    expect(grid[0]).toEqual([null, '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(grid.at(-1)).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', null, null, null]);
    expect(grid.every((week) => week.length === 7)).toBe(true);
    expect(grid.flat().filter(Boolean)).toHaveLength(31);
  });

  it('starts weeks on Sunday when asked, and fits a February that starts on the week start into four rows', () => {
    // February 2026 starts on a Sunday and has 28 days.
    expect(monthGrid('2026-02', 0)).toHaveLength(4);
    expect(monthGrid('2026-02', 0)[0]![0]).toBe('2026-02-01');
    expect(monthGrid('2026-02', 1)).toHaveLength(5);
  });

  it('has 29 days in a leap February', () => {
    expect(monthGrid('2028-02', 1).flat().filter(Boolean)).toHaveLength(29);
    expect(monthRange('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });
});

describe('day and month steps', () => {
  it('adds days across months and years, and counts nights', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-12-30', '2027-01-02')).toBe(3);
  });

  it('steps months across years both ways', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-05', 14)).toBe('2027-07');
  });

  it('accepts only real days and months', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-2-3')).toBe(false);
    expect(isDay(undefined)).toBe(false);
    expect(isMonth('2026-12')).toBe(true);
    expect(isMonth('2026-13')).toBe(false);
  });

  it("reads today in the facility's zone, not the browser's", () => {
    const at = Date.parse('2026-12-03T16:00:00Z');
    expect(todayIn('UTC', at)).toBe('2026-12-03');
    expect(todayIn('Asia/Tokyo', at)).toBe('2026-12-04');
    expect(todayIn('America/Los_Angeles', at)).toBe('2026-12-03');
  });
});

describe('day level across room types', () => {
  it('is the best level any type has, full when all are full, past when past', () => {
    expect(dayLevel(day('2026-12-10', 'full', 'few'))).toBe('few');
    expect(dayLevel(day('2026-12-10', 'few', 'available'))).toBe('available');
    expect(dayLevel(day('2026-12-10', 'full', 'full'))).toBe('full');
    expect(dayLevel(day('2026-12-10', 'past', 'past'))).toBe('past');
    expect(dayLevel(day('2026-12-10'))).toBe('full');
    expect(dayLevel(undefined)).toBeNull();
  });
});

describe('latest check-out', () => {
  const map = (...days: DayAvailability[]) => new Map(days.map((d) => [d.date, d]));

  it('ends a stay at the first night no room type can take', () => {
    const byDay = map(day('2026-12-10', 'available'), day('2026-12-11', 'few'), day('2026-12-12', 'full'));
    // The night of the 12th is full: check out on the 12th at the latest.
    expect(latestCheckOut('2026-12-10', byDay)).toBe('2026-12-12');
  });

  it('follows the one type that stays free when another fills up', () => {
    const byDay = map(
      day('2026-12-10', 'available', 'available'),
      day('2026-12-11', 'full', 'available'),
      day('2026-12-12', 'full', 'full'),
    );
    expect(latestCheckOut('2026-12-10', byDay)).toBe('2026-12-12');
  });

  it('does not join two types into one stay', () => {
    // Type 0 is free on the 10th only, type 1 on the 11th only: no stay of two nights.
    const byDay = map(day('2026-12-10', 'available', 'full'), day('2026-12-11', 'full', 'available'));
    expect(latestCheckOut('2026-12-10', byDay)).toBe('2026-12-11');
  });

  it('counts nights not loaded yet as free, up to the longest stay sold', () => {
    expect(latestCheckOut('2026-12-10', map(day('2026-12-10', 'available')))).toBe(addDays('2026-12-10', MAX_NIGHTS));
  });
});
