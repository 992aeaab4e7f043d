/**
 * The UI's locales, in a module of their own: a Client Component that lists them (the language
 * switcher, on the guest page too) must not import locale.ts, which reaches the whole catalogue.
 */
export const LOCALES = ['en', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];
