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

/** How many minor units a currency's major unit has: 0 for JPY, 2 for EUR (as Intl knows it). */
export function currencyExponent(currency: string): number | null {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() });
    return format.resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return null;
  }
}

/** An amount typed in the currency's major unit ("12000", "120.50") in its minor unit, or null when it has too many decimals. */
export function toMinorUnits(amount: string, currency: string): number | null {
  const exponent = currencyExponent(currency);
  const match = /^(\d{1,9})(?:[.,](\d+))?$/.exec(amount.trim());
  if (exponent === null || !match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) return null;
  return Number(match[1]) * 10 ** exponent + Number(fraction.padEnd(exponent, '0') || '0');
}

/** A minor-unit amount as the form shows it again ("120.50"). */
export function fromMinorUnits(cents: number, currency: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  return exponent === 0 ? String(cents) : (cents / 10 ** exponent).toFixed(exponent);
}
