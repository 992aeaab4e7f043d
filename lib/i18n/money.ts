import { intlLocale, type Locale } from './locale';

/**
 * Formats an amount given in the currency's smallest unit (Stripe's convention: cents for EUR,
 * yen for JPY) for a locale. The currency's own exponent decides the division, so 12000 JPY is
 * ¥12,000 and 1234 EUR is €12.34. An unknown currency code falls back to "1234 XYZ".
 */
export function formatMoney(locale: Locale, amount: number, currency: string): string {
  const code = currency.toUpperCase();
  try {
    const format = new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency: code });
    const exponent = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** exponent);
  } catch {
    return `${amount} ${code}`;
  }
}
