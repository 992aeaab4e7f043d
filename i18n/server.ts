import 'server-only';
import { cache } from 'react';
import { cookies, headers } from 'next/headers';
import { getServerSession } from 'next-auth';
import { authOptions, type SessionClaims } from '@/lib/auth/auth-options';
import { ownLocale } from '@/lib/auth/update-profile';
import { isLocale, negotiateLocale, translator, type Locale, type Translate } from '@/lib/i18n/locale';

export const LOCALE_COOKIE = 'unlockos_locale';

// next-auth's session cookie (plain and __Secure-): without one, no account is looked up.
const SESSION_COOKIES = ['next-auth.session-token', '__Secure-next-auth.session-token'];

/**
 * The request's UI locale: the signed-in person's own language (chosen on /account), else a valid
 * `unlockos_locale` cookie, else the Accept-Language header. A request without a session cookie (guests,
 * the public pages) looks up no account.
 */
export const getLocale = cache(async (): Promise<Locale> => {
  const jar = await cookies();
  if (SESSION_COOKIES.some((name) => jar.get(name) !== undefined)) {
    const session = (await getServerSession(authOptions)) as SessionClaims | null;
    const own = session?.userId ? await ownLocale(session.userId, session.sessionGeneration ?? 0) : null;
    if (own) return own;
  }
  const chosen = jar.get(LOCALE_COOKIE)?.value;
  if (isLocale(chosen)) return chosen;
  return negotiateLocale((await headers()).get('accept-language'));
});

/** `t(key, vars)` for the request's locale. */
export async function getT(): Promise<Translate> {
  return translator(await getLocale());
}
