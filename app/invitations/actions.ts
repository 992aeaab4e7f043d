'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { passwordProblem } from '@/lib/auth/password';
import { AppError } from '@/lib/errors';
import { acceptInvitation, activateInvitedAccount, declineInvitation, readInvitation } from '@/lib/staff/invitations';
import { accountAction, publicAction, refuse } from '@/app/_server/action';
import { issueSession } from '@/app/_server/session';
import { rememberTenant } from '@/app/_server/staff';

const ZTokenSchema = z.object({ token: z.string().max(100) });

async function workIn(tenantId: string): Promise<never> {
  await rememberTenant(tenantId);
  redirect('/desk');
}

/** The signed-in account accepts the invitation of the link it opened, and starts working in that tenant. */
export const acceptInvitationAction = accountAction(
  { name: 'acceptInvitation', input: ZTokenSchema },
  async ({ input, account }) => {
    const { tenantId } = await acceptInvitation({ token: input.token, userId: account.user.id });
    return workIn(tenantId);
  },
);

/** The signed-in account declines the invitation of the link it opened. */
export const declineInvitationAction = accountAction(
  { name: 'declineInvitation', input: ZTokenSchema },
  ({ input, account }) => declineInvitation({ token: input.token, userId: account.user.id }),
);

/**
 * An address that had no account chooses its first password from the invitation's link (the link
 * proves the address), joins the tenant and is signed in there.
 */
export const activateAccountAction = publicAction(
  {
    name: 'activateAccount',
    input: ZTokenSchema.extend({ next: z.string().max(4096), confirm: z.string().max(4096) }),
  },
  async ({ input }) => {
    const invitation = await readInvitation(input.token);
    if (!invitation) throw new AppError('not_found', 'This invitation is not valid any more.');
    if (input.next !== input.confirm) return refuse('account.password.error.mismatch', { field: 'confirm' });
    const problem = passwordProblem(input.next, invitation.email);
    if (problem) return refuse(`account.password.error.${problem}`, { field: 'next' });
    const account = await activateInvitedAccount({ token: input.token, password: input.next });
    await issueSession({
      id: account.userId,
      email: invitation.email,
      name: '',
      sessionGeneration: account.sessionGeneration,
    });
    return workIn(account.tenantId);
  },
);
