import type { formats } from '@/lib/i18n/formats';
import type { Messages } from '@/lib/i18n/catalog';

// Typed keys and formats (the locale stays a string: dates are formatted as en-GB and ja-JP, see
// lib/i18n/locale.ts intlLocale) for useTranslations/getTranslations/useFormatter everywhere.
declare module 'next-intl' {
  interface AppConfig {
    Messages: Messages;
    Formats: typeof formats;
  }
}
