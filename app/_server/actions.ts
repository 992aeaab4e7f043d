'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { safeReturnPath } from '@/lib/auth/safe-path';
import { setOwnLocale } from '@/lib/auth/update-profile';
import { LOCALES } from '@/lib/i18n/locale';
import { LOCALE_COOKIE } from '@/i18n/server';
import { staffAction } from './action';
import { getAccount, rememberTenant } from './staff';

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

const ZSetLocaleSchema = z.object({
  locale: z.enum(LOCALES),
  returnTo: z.unknown().transform((v) => safeReturnPath(v, '/')),
});
const ZSwitchTenantSchema = z.object({
  tenantId: z.guid(),
  returnTo: z.unknown().transform((v) => safeReturnPath(v, '/desk')),
});

/**
 * Remembers the chosen UI language for a year (and as the signed-in person's own), then returns to the page the form was on. The one
 * action outside staffAction: guests and signed-out visitors choose a language too.
 */
export async function setLocale(formData: FormData): Promise<void> {
  const parsed = ZSetLocaleSchema.safeParse({
    locale: formData.get('locale'),
    returnTo: formData.get('returnTo') ?? '/',
  });
  if (!parsed.success) redirect('/');
  // Signed in, the choice is the person's own language (their account's, which wins over the cookie).
  const account = await getAccount();
  if (account) await setOwnLocale({ userId: account.user.id, locale: parsed.data.locale });
  (await cookies()).set(LOCALE_COOKIE, parsed.data.locale, {
    path: '/',
    maxAge: ONE_YEAR_SECONDS,
    sameSite: 'lax',
    httpOnly: true,
  });
  redirect(parsed.data.returnTo);
}

const switchTenantAction = staffAction(
  { name: 'switchTenant', permission: null, input: ZSwitchTenantSchema },
  async ({ input: { tenantId, returnTo }, staff }) => {
    if (staff.memberships.some((m) => m.tenantId === tenantId)) await rememberTenant(tenantId);
    redirect(returnTo);
  },
);

/** Switches the working tenant, but only to one the signed-in staff member belongs to. */
export async function switchTenant(formData: FormData): Promise<void> {
  await switchTenantAction(null, formData);
  // Only a refused form gets here: a switch redirects back to where it was asked.
  redirect('/desk');
}
