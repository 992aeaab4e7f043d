import { createTranslator } from 'next-intl';
import { messages, type Messages } from './catalog';
import { LOCALES, type Locale } from './locales';

export { LOCALES, type Locale };
export const DEFAULT_LOCALE: Locale = 'en';

/** Values for a message's placeholders. */
export type TranslationVars = Record<string, string | number>;

/** `t(key, values)` over the whole catalog, with ICU placeholders (`{name}`). */
export type Translate = ReturnType<typeof createTranslator<Messages>>;

/** True when `value` is one of the supported locales (for cookies and form input). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Picks the UI locale from an Accept-Language header: Japanese when the header prefers it over
 * English (higher q-value, or the same q-value listed first), English otherwise — including for an
 * empty, missing or malformed header. Pure: no I/O.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const best: Record<Locale, { q: number; index: number }> = {
    en: { q: 0, index: Number.POSITIVE_INFINITY },
    ja: { q: 0, index: Number.POSITIVE_INFINITY },
  };
  acceptLanguage.split(',').forEach((part, index) => {
    const [rawTag, ...params] = part.split(';');
    const tag = rawTag?.trim().toLowerCase() ?? '';
    const locale = LOCALES.find((l) => tag === l || tag.startsWith(`${l}-`));
    if (!locale) return;
    const q = parseQuality(params);
    const current = best[locale];
    if (q > current.q) best[locale] = { q, index };
  });
  const { en, ja } = best;
  if (ja.q > en.q) return 'ja';
  if (ja.q > 0 && ja.q === en.q && ja.index < en.index) return 'ja';
  return 'en';
}

// RFC 9110 §12.4.2: q is 0–1 with up to three decimals, default 1. A malformed weight makes the
// range unusable (0) rather than silently preferred.
function parseQuality(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=').map((s) => s.trim());
    if (name?.toLowerCase() !== 'q') continue;
    if (!value || !/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value)) return 0;
    return Number(value);
  }
  return 1;
}

const translators = new Map<Locale, Translate>();

/**
 * `t(key, values)` for one locale, from the catalog in messages/ (next-intl's ICU message format). One
 * per locale for the process: a translator keeps the Intl formatters and plural rules it builds, which
 * a translator per call (three per page: layout, page and their metadata) built again on every request.
 */
export function translator(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) translators.set(locale, (t = createTranslator({ locale, messages: messages[locale] })));
  return t;
}

/** BCP 47 tag used for Intl formatting of dates and numbers in a locale. */
export function intlLocale(locale: Locale): string {
  return locale === 'ja' ? 'ja-JP' : 'en-GB';
}
