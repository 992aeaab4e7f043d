import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { hashPassword } from '../auth/password';
import type { Role } from '../auth/permissions';
import { asService } from '../db/tx';
import { AppError } from '../errors';

/**
 * Creates an account with a password its owner chose (the operator's `cli user-create`, the demo
 * seed, tests) and a membership in a tenant. An email that already has an account on the install is
 * `conflict`, said as such: the account keeps its password and its tenants, and joins another tenant
 * only by accepting an invitation (lib/staff/invitations.ts). With an `actor`, audited `member.created`.
 */
export async function createStaffUser(input: {
  tenantId: string;
  email: string;
  password: string;
  role: Role;
  name?: string;
  actor?: Actor;
}): Promise<{ id: string }> {
  const { tenantId, role, actor } = input;
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return asService(async (tx) => {
    const existing = await tx.user.count({ where: { email } });
    if (existing > 0)
      throw new AppError(
        'conflict',
        'This email already has an account: it keeps its password; invite it from the tenant’s staff page to add it to another tenant.',
      );
    const user = await tx.user.create({ data: { email, name: input.name ?? '', passwordHash }, select: { id: true } });
    await tx.membership.create({ data: { tenantId, userId: user.id, role } });
    if (actor)
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'member.created',
        subject: { type: 'user', id: user.id },
        metadata: { email, name: input.name ?? '', role },
      });
    return { id: user.id };
  });
}
