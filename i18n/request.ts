import { getRequestConfig } from 'next-intl/server';
import { getLocale } from '@/i18n/server';
import { messages } from '@/lib/i18n/catalog';
import { formats } from '@/lib/i18n/formats';
import { intlLocale } from '@/lib/i18n/locale';

/**
 * next-intl's per-request configuration (found by its plugin in next.config.js). The locale is the
 * request's (cookie, else Accept-Language: i18n/server.ts); times default to UTC, and every
 * page that shows a door's times passes its facility's zone explicitly (lib/i18n/formats.ts).
 */
export default getRequestConfig(async () => {
  const locale = await getLocale();
  // next-intl's locale is the formatting tag (en-GB, ja-JP: "30 Nov 2026"); the app's own is `getLocale()`.
  return { locale: intlLocale(locale), messages: messages[locale], formats, timeZone: 'UTC' };
});
