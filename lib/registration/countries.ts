import { isCountryCode } from './registration-input';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Codes CLDR names that are no one's nationality (groupings, pseudo-regions). */
const NOT_NATIONALITIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

/**
 * The nationalities the register's form offers, named in the guest's language: Japan first (most
 * guests), then every ISO 3166-1 alpha-2 country CLDR knows, in that language's order.
 */
export function countryOptions(locale: string): { code: string; name: string }[] {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const options: { code: string; name: string }[] = [];
  for (const a of LETTERS)
    for (const b of LETTERS) {
      const code = a + b;
      if (!NOT_NATIONALITIES.has(code) && isCountryCode(code)) options.push({ code, name: names.of(code) ?? code });
    }
  const collator = new Intl.Collator(locale);
  options.sort((x, y) => (x.code === 'JP' ? -1 : y.code === 'JP' ? 1 : collator.compare(x.name, y.name)));
  return options;
}
