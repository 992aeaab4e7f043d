'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { passwordProblem } from '@/lib/auth/password';
import { requestPasswordReset, resetAccountEmail, resetPassword } from '@/lib/auth/password-reset';
import { AppError } from '@/lib/errors';
import { clientAddress } from '@/lib/http/client-address';
import { publicAction, refuse } from '@/app/_server/action';
import { getLocale } from '@/i18n/server';

/** "Forgot your password": a link for the email's account, if it has one; the same answer for every email. */
export const requestPasswordResetAction = publicAction(
  {
    name: 'requestPasswordReset',
    input: z.object({ email: z.email('passwordReset.emailInvalid').max(320, 'passwordReset.emailInvalid') }),
    echo: { email: 'text' },
  },
  async ({ input }) =>
    requestPasswordReset({ email: input.email, address: clientAddress(await headers()), locale: await getLocale() }),
);

/** A reset link sets a new password once; every session of the account ends; then the sign-in page. */
export const resetPasswordAction = publicAction(
  {
    name: 'resetPassword',
    input: z.object({ token: z.string().max(100), next: z.string().max(4096), confirm: z.string().max(4096) }),
  },
  async ({ input }) => {
    const email = await resetAccountEmail(input.token);
    if (!email) throw new AppError('not_found', 'This link is not valid any more.');
    if (input.next !== input.confirm) return refuse('account.password.error.mismatch', { field: 'confirm' });
    const problem = passwordProblem(input.next, email);
    if (problem) return refuse(`account.password.error.${problem}`, { field: 'next' });
    await resetPassword({ token: input.token, password: input.next });
    redirect('/sign-in?passwordChanged=1');
  },
);
