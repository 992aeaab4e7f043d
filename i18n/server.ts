import 'server-only';
import { cache } from 'react';
import { cookies, headers } from 'next/headers';
import { isLocale, negotiateLocale, translator, type Locale, type Translate } from '@/lib/i18n/locale';

export const LOCALE_COOKIE = 'unlockos_locale';

/** The request's UI locale: a valid `unlockos_locale` cookie wins, else the Accept-Language header. */
export const getLocale = cache(async (): Promise<Locale> => {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  if (isLocale(chosen)) return chosen;
  return negotiateLocale((await headers()).get('accept-language'));
});

/** `t(key, vars)` for the request's locale. */
export async function getT(): Promise<Translate> {
  return translator(await getLocale());
}
