'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { AppError } from '@/lib/errors';
import { clientAddress } from '@/lib/http/client-address';
import {
  choosesPassword,
  completeSignUp,
  readSignUp,
  requestSignUp,
  signUpOpen,
  signUpPasswordProblem,
  ZSignUpPasswordSchema,
  ZSignUpSchema,
} from '@/lib/staff/sign-up';
import { publicAction, refuse } from '@/app/_server/action';
import { issueSession } from '@/app/_server/session';
import { getAccount, rememberTenant } from '@/app/_server/staff';
import { getLocale } from '@/i18n/server';

/**
 * Asks for a sign-up: the organisation, its first facility and the manager (no password: it is chosen
 * on the link's page); the answer is "check your mail" whether or not the email already has an account.
 */
export const requestSignUpAction = publicAction(
  {
    name: 'requestSignUp',
    input: ZSignUpSchema,
    echo: { organisationName: 'text', facilityName: 'text', timeZone: 'text', name: 'text', email: 'text' },
  },
  async ({ input }) => {
    if (!signUpOpen()) throw new AppError('forbidden', 'Sign-up is closed.');
    return requestSignUp({ ...input, address: clientAddress(await headers()), locale: await getLocale() });
  },
);

/**
 * Follows a sign-up's link: the organisation, its facility and its manager in one transaction, then
 * the manager's screen — signed in as the new account (its password typed on the link's page), or as
 * the email's own account already signed in.
 */
export const completeSignUpAction = publicAction(
  {
    name: 'completeSignUp',
    input: z.object({ token: z.string().max(100) }).extend(ZSignUpPasswordSchema.partial().shape),
  },
  async ({ input }) => {
    if (!signUpOpen()) throw new AppError('forbidden', 'Sign-up is closed.');
    const page = await readSignUp(input.token);
    if (!page) throw new AppError('not_found', 'This link is not valid any more.');
    let password = null;
    if (choosesPassword(page)) {
      password = { next: input.next ?? '', confirm: input.confirm ?? '' };
      const problem = signUpPasswordProblem({ ...password, email: page.email });
      if (problem) return refuse(problem.message, { field: problem.field });
    }
    const account = await getAccount();
    const done = await completeSignUp({ token: input.token, userId: account?.user.id ?? null, password });
    if (account?.user.id !== done.userId)
      await issueSession({
        id: done.userId,
        email: done.email,
        name: done.name,
        sessionGeneration: done.sessionGeneration,
      });
    await rememberTenant(done.tenantId);
    redirect('/manage?welcome=1');
  },
);
