import { describe, expect, it } from 'vitest';
import { dayKind, quoteHours, quoteNights, type TPricingRules } from './pricing';

const rates = { weekdayCents: 12000, weekendCents: 15000, holidayCents: 18000 };
const nightly: TPricingRules = {
  unit: 'night',
  timeZone: 'Asia/Tokyo',
  country: 'JP',
  taxMode: 'included',
  taxRateBp: 1000,
};
const hourly: TPricingRules = { ...nightly, unit: 'hour' };

describe('prices from the rate table', () => {
  it('prices a weekday night, a weekend night and the night before a public holiday', () => {
    // 2026-12-09 is a Wednesday, 2026-12-11 a Friday; 2027-01-01 is New Year's Day.
    expect(quoteNights(rates, nightly, '2026-12-09', '2026-12-10').amountCents).toBe(12000);
    expect(quoteNights(rates, nightly, '2026-12-11', '2026-12-12').amountCents).toBe(15000);
    expect(quoteNights(rates, nightly, '2026-12-31', '2027-01-01').amountCents).toBe(18000);
  });

  it('prices a stay across a weekend and a holiday night by night', () => {
    // Thu 2026-12-31 (eve of New Year's Day) → holiday, Fri 1 Jan → weekend, Sat 2 Jan → weekend, Sun 3 → weekday.
    const quote = quoteNights(rates, nightly, '2026-12-31', '2027-01-04');
    expect(quote.lines.map((l) => [l.date, l.kind, l.cents])).toEqual([
      ['2026-12-31', 'holiday', 18000],
      ['2027-01-01', 'weekend', 15000],
      ['2027-01-02', 'weekend', 15000],
      ['2027-01-03', 'weekday', 12000],
    ]);
    expect(quote.amountCents).toBe(60000);
  });

  it('knows a substitute holiday (振替休日) and falls back to the weekend price when no holiday price is set', () => {
    // 2026-05-06 is the substitute holiday for Constitution Day: the night of the 5th is a holiday's eve.
    expect(dayKind('night', 'JP', '2026-05-05')).toBe('holiday');
    expect(quoteNights({ ...rates, holidayCents: null }, nightly, '2026-05-05', '2026-05-06').amountCents).toBe(15000);
    expect(
      quoteNights({ weekdayCents: 9000, weekendCents: null, holidayCents: null }, nightly, '2026-12-11', '2026-12-13')
        .amountCents,
    ).toBe(18000);
  });

  it('adds tax when the facility says prices exclude it', () => {
    const quote = quoteNights(rates, { ...nightly, taxMode: 'added' }, '2026-12-09', '2026-12-10');
    expect(quote).toMatchObject({ subtotalCents: 12000, taxCents: 1200, amountCents: 13200 });
  });

  it('prices hourly steps by their local day: a weekday afternoon, a Sunday, a public holiday', () => {
    const hour = { weekdayCents: 2000, weekendCents: 3000, holidayCents: 4000 };
    // Wed 2026-12-09 13:00–14:30 Tokyo = 04:00–05:30Z: 1.5 hours at 2000.
    expect(
      quoteHours(hour, hourly, new Date('2026-12-09T04:00:00Z'), new Date('2026-12-09T05:30:00Z')).amountCents,
    ).toBe(3000);
    // Sun 2026-12-13 10:00–11:00 Tokyo.
    expect(
      quoteHours(hour, hourly, new Date('2026-12-13T01:00:00Z'), new Date('2026-12-13T02:00:00Z')).amountCents,
    ).toBe(3000);
    // Mon 2026-11-23 (Labour Thanksgiving Day) 10:00–10:45 Tokyo: three steps of 1000.
    expect(
      quoteHours(hour, hourly, new Date('2026-11-23T01:00:00Z'), new Date('2026-11-23T01:45:00Z')).amountCents,
    ).toBe(3000);
  });

  it('splits an hourly booking across local midnight into its two days', () => {
    const hour = { weekdayCents: 2000, weekendCents: 3000, holidayCents: null };
    // Fri 2026-12-11 23:00 → Sat 00:30 Tokyo: one hour at the weekday price, half an hour at the weekend price.
    const quote = quoteHours(hour, hourly, new Date('2026-12-11T14:00:00Z'), new Date('2026-12-11T15:30:00Z'));
    expect(quote.lines.map((l) => [l.date, l.kind, l.cents])).toEqual([
      ['2026-12-11', 'weekday', 2000],
      ['2026-12-12', 'weekend', 1500],
    ]);
  });
});
