import type pg from 'pg';
import type { Role } from '../../lib/auth/permissions';
import { derivedToken } from '../../lib/auth/guest-links';
import { acceptInvitation, inviteMember } from '../../lib/staff/invitations';
import { asService, runInTransaction, sqlLiteral, statement } from '../../lib/db/tx';
import { TEST_ACTOR } from './fixtures';

// Accounts in tests: the links that reach people by mail, read from the rows they belong to (as the
// worker writes them into the mail), and a member of several tenants made the only way there is.

/** The link token of the newest open invitation of `tenantId` for `email`. */
export async function invitationToken(tenantId: string, email: string): Promise<string> {
  const [rows] = await asService((tx) =>
    runInTransaction(tx, [
      statement<{ id: string }>(`select id from staff_invitations where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
      and email = ${sqlLiteral(email.toLowerCase(), 'text')}
        and accepted_at is null and ended_at is null order by created_at desc limit 1`),
    ]),
  );
  if (!rows[0]) throw new Error(`no open invitation for ${email}`);
  return derivedToken('staff-invitation', rows[0].id);
}

/** The link token of the newest reset link of `email`'s account (open or not). */
export async function resetToken(admin: pg.Client, email: string): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `select r.id from password_resets r join users u on u.id = r.user_id where u.email = $1 order by r.created_at desc limit 1`,
    [email.toLowerCase()],
  );
  if (!rows[0]) throw new Error(`no reset link for ${email}`);
  return derivedToken('password-reset', rows[0].id);
}

/** Makes an existing account a member of another tenant as it happens for real: invited, then accepted. */
export async function joinTenant(input: { userId: string; email: string; tenantId: string; role: Role }) {
  await inviteMember({ tenantId: input.tenantId, email: input.email, name: '', role: input.role, actor: TEST_ACTOR });
  return acceptInvitation({ token: await invitationToken(input.tenantId, input.email), userId: input.userId });
}
