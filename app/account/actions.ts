'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { changeOwnPassword } from '@/lib/auth/change-password';
import { updateProfile } from '@/lib/auth/update-profile';
import { LOCALES } from '@/lib/i18n/locales';
import { safeReturnPath } from '@/lib/auth/safe-path';
import { clientAddress } from '@/lib/http/client-address';
import { accountAction, refuse } from '@/app/_server/action';
import { issueSession } from '@/app/_server/session';

const ZPasswordChoiceSchema = z.object({
  current: z.string().max(1024).optional(),
  next: z.string().max(4096),
  confirm: z.string().max(4096),
  returnTo: z.unknown().transform((v) => safeReturnPath(v, '/desk')),
});

/**
 * The signed-in account changes its password — with the current one, or, when a one-time password
 * opened the session, without it, and then goes where it was headed. Every other session ends; this
 * browser's is re-issued at the new generation. Audited `user.password_changed`.
 */
export const changePasswordAction = accountAction(
  { name: 'changePassword', input: ZPasswordChoiceSchema },
  async ({ input, account }) => {
    if (input.next !== input.confirm) return refuse('account.password.error.mismatch', { field: 'confirm' });
    const result = await changeOwnPassword({
      user: account.user,
      sessionGeneration: account.sessionGeneration,
      mustChangePassword: account.mustChangePassword,
      current: input.current,
      next: input.next,
      address: clientAddress(await headers()),
    });
    if (!result.ok)
      return refuse(`account.password.error.${result.refusal}`, {
        field: result.refusal === 'current_wrong' ? 'current' : 'next',
      });
    await issueSession({ ...account.user, sessionGeneration: result.sessionGeneration });
    if (account.mustChangePassword) redirect(input.returnTo);
    return { changed: true };
  },
);

/**
 * The signed-in person saves their name and language: the UI follows the language whenever they are signed
 * in, and so do their account emails. The page is rendered again in the chosen language.
 */
export const updateProfileAction = accountAction(
  {
    name: 'updateProfile',
    input: z.object({
      name: z.string().trim().max(200, 'account.profile.nameTooLong'),
      locale: z.enum(LOCALES, 'account.profile.languageInvalid'),
    }),
    echo: { name: 'text', locale: 'text' },
    revalidate: { path: '/account' },
  },
  ({ input, account }) => updateProfile({ userId: account.user.id, name: input.name, locale: input.locale }),
);
