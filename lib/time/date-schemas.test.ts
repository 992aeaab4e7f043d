import { describe, expect, it } from 'vitest';
import { ZCalendarDaySchema, ZInstantSchema, ZInstantTextSchema } from './date-schemas';

describe('the date schemas', () => {
  it('take real dates in 2000–2100 and refuse the rest', () => {
    const days = ['2000-01-01', '2100-12-31', '2028-02-29', '1999-12-31', '2101-01-01', '2027-02-30', '9999-12-31'];
    expect(days.map((day) => ZCalendarDaySchema.safeParse(day).success)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    const instants = [
      '2100-12-31T23:59:59+09:00',
      '1999-12-31T23:59:59Z',
      '0001-01-01T00:00:00Z',
      '+010000-01-01T00:00:00Z',
    ];
    expect(instants.map((at) => ZInstantTextSchema.safeParse(at).success)).toEqual([true, false, false, false]);
  });

  it('reads an instant as its Date, and keeps the text where asked', () => {
    expect(ZInstantSchema.parse('2027-01-10T15:00:00+09:00')).toEqual(new Date('2027-01-10T06:00:00Z'));
    expect(ZInstantTextSchema.parse('2027-01-10T15:00:00+09:00')).toBe('2027-01-10T15:00:00+09:00');
  });
});
