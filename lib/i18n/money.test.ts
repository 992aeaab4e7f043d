import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  it('treats the amount as the smallest currency unit', () => {
    // JPY has no minor unit: 12000 is twelve thousand yen, not 120.
    expect(formatMoney('en', 12000, 'jpy')).toMatch(/¥12,000$/);
    expect(formatMoney('ja', 12000, 'jpy')).toMatch(/[¥￥]12,000$/);
    expect(formatMoney('en', 1234, 'eur')).toBe('€12.34');
    expect(formatMoney('en', 1234, 'usd')).toBe('US$12.34');
  });

  it('falls back to the raw amount for an unknown currency', () => {
    expect(formatMoney('en', 1234, 'not-a-currency')).toBe('1234 NOT-A-CURRENCY');
  });
});
