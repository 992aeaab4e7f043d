import { describe, expect, it } from 'vitest';
import { zonedDateTime } from '../bookings/stay-window';
import {
  extensionAmount,
  extensionEnd,
  extensionOptions,
  latestExtensionEnd,
  type TExtensionRules,
} from './extension-quote';

// The extension's grid and price without the database (decision 029): the added time only, on the facility's grid.

const ZONE = 'Asia/Tokyo';
const at = (date: string, time: string) => zonedDateTime(date, time, ZONE);
const rates = { weekdayCents: 2000, weekendCents: 3000, holidayCents: 4000 };
const hourly: TExtensionRules = {
  unit: 'hour',
  timeZone: ZONE,
  country: 'JP',
  taxMode: 'added',
  taxRateBp: 1000,
  checkOutTime: '10:00',
  opensAt: '09:00',
  closesAt: '21:00',
};
const nightly: TExtensionRules = { ...hourly, unit: 'night', taxMode: 'included' };

describe('an hourly stay’s extension', () => {
  const stay = { endsAt: at('2027-07-07', '19:00'), latestEndsAt: null };

  it('takes later 15-minute steps up to closing, priced per step of the day with tax added', () => {
    expect(extensionEnd(stay, hourly, { endsAt: at('2027-07-07', '20:30').toISOString() })).toEqual(
      at('2027-07-07', '20:30'),
    );
    // Wednesday: 1.5 h at 2,000 an hour = 3,000, plus 10 %.
    expect(extensionAmount(stay, hourly, rates, at('2027-07-07', '20:30'))).toBe(3300);
    for (const endsAt of [at('2027-07-07', '20:10'), at('2027-07-07', '21:15'), at('2027-07-07', '19:00')]) {
      expect(() => extensionEnd(stay, hourly, { endsAt: endsAt.toISOString() })).toThrow(
        expect.objectContaining({ code: 'invalid_request' }),
      );
    }
    expect(() => extensionEnd(stay, hourly, { checkOut: '2027-07-08' })).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
  });

  it('offers the steps until closing or the next stay, and says the latest', () => {
    const options = extensionOptions(stay, hourly, rates);
    expect(options).toHaveLength(8);
    expect(options[0]).toEqual({ endsAt: at('2027-07-07', '19:15').toISOString(), amountCents: 550 });
    const boxed = { ...stay, latestEndsAt: at('2027-07-07', '19:40') };
    expect(extensionOptions(boxed, hourly, rates).map((o) => o.endsAt)).toEqual([
      at('2027-07-07', '19:15').toISOString(),
      at('2027-07-07', '19:30').toISOString(),
    ]);
    expect(latestExtensionEnd(boxed, hourly, rates)).toEqual(at('2027-07-07', '19:30'));
  });
});

describe('a night stay’s extension', () => {
  const stay = { endsAt: at('2027-07-09', '10:00'), latestEndsAt: at('2027-07-11', '15:00') };

  it('takes the check-out time of a later day, as endsAt or checkOut; the latest end is the next stay’s day', () => {
    expect(extensionEnd(stay, nightly, { checkOut: '2027-07-11' })).toEqual(at('2027-07-11', '10:00'));
    expect(() => extensionEnd(stay, nightly, { endsAt: at('2027-07-11', '11:00').toISOString() })).toThrow();
    // Friday and Saturday nights: the weekend price.
    expect(extensionAmount(stay, nightly, rates, at('2027-07-11', '10:00'))).toBe(6000);
    expect(latestExtensionEnd(stay, nightly, rates)).toEqual(at('2027-07-11', '10:00'));
    expect(latestExtensionEnd({ ...stay, latestEndsAt: at('2027-07-09', '15:00') }, nightly, rates)).toEqual(
      stay.endsAt,
    );
  });
});
