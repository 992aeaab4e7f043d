import { describe, expect, it } from 'vitest';
import { formatAmount, formatClock, formatDay, formatMonth, pluralOf, weekdayNames } from './format';

describe('booking site formats', () => {
  it("divides by the currency's own decimals", () => {
    expect(formatAmount('ja-JP', 12000, 'jpy')).toMatch(/^[¥￥]12,000$/);
    expect(formatAmount('en-GB', 1234, 'eur')).toBe('€12.34');
    expect(formatAmount('en-GB', 5, 'XYZ1')).toBe('5 XYZ1');
  });

  it('writes days, months and weekdays in the locale', () => {
    // ICU versions differ on the comma after the weekday.
    expect(formatDay('en-GB', '2026-12-10', 'long')).toMatch(/^Thursday,? 10 December 2026$/);
    expect(formatDay('ja-JP', '2026-12-10', 'medium')).toBe('2026/12/10');
    expect(formatMonth('en-GB', '2026-12')).toBe('December 2026');
    expect(formatMonth('ja-JP', '2026-12')).toBe('2026年12月');
    expect(weekdayNames('en-GB', 1)[0]!.short).toBe('Mon');
    expect(weekdayNames('ja-JP', 0)[0]!.short).toBe('日');
  });

  it('writes clock times and picks plurals', () => {
    expect(formatClock('en-GB', '09:15')).toBe('09:15');
    expect(formatClock('en-GB', '24:00')).toBe('24:00');
    expect(pluralOf('en-GB', 1)).toBe('one');
    expect(pluralOf('en-GB', 2)).toBe('other');
    expect(pluralOf('ja-JP', 1)).toBe('other');
  });
});
