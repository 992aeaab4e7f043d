import { describe, expect, it } from 'vitest';
import { groupAmount } from './create-group-payment-intent';
import { stayAmountCents, unitsOf } from './stay-amount';

const z = (iso: string) => new Date(iso);

describe('the amount of a stay', () => {
  it('counts begun hours for an hourly rate and nights for a nightly one, at least one', () => {
    expect(unitsOf('hour', z('2030-01-01T01:00:00Z'), z('2030-01-01T03:00:00Z'))).toBe(2);
    expect(unitsOf('hour', z('2030-01-01T01:00:00Z'), z('2030-01-01T01:20:00Z'))).toBe(1);
    // 15:00 to 10:00 two days later: 43 hours, two nights.
    expect(unitsOf('night', z('2030-01-01T06:00:00Z'), z('2030-01-03T01:00:00Z'))).toBe(2);
    expect(unitsOf('night', z('2030-01-01T01:00:00Z'), z('2030-01-01T03:00:00Z'))).toBe(1);
    expect(
      stayAmountCents({
        rateCents: 3000,
        rateUnit: 'hour',
        startsAt: z('2030-01-01T01:00:00Z'),
        endsAt: z('2030-01-01T03:00:00Z'),
      }),
    ).toBe(6000);
  });

  it("prices a group from each room's rate and unit, and refuses to mix currencies", () => {
    const meeting = {
      rateCents: 3000,
      rateUnit: 'hour' as const,
      currency: 'jpy',
      startsAt: z('2030-01-01T01:00:00Z'),
      endsAt: z('2030-01-01T03:00:00Z'),
    };
    const night = {
      rateCents: 12000,
      rateUnit: 'night' as const,
      currency: 'jpy',
      startsAt: z('2030-01-01T06:00:00Z'),
      endsAt: z('2030-01-03T01:00:00Z'),
    };
    expect(groupAmount([meeting])).toEqual({ amount: 6000, currency: 'jpy' });
    expect(groupAmount([meeting, night])).toEqual({ amount: 6000 + 24000, currency: 'jpy' });
    expect(groupAmount([meeting, { ...night, currency: 'eur' }])).toBeNull();
  });
});
