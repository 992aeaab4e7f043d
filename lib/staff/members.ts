import type { Actor } from '../audit/actor';
import { clearSignInLimits } from '../auth/sign-in';
import type { Role } from '../auth/permissions';
import { asService, runInTransaction, sqlLiteral, statement, type Tx, withTenant } from '../db/tx';
import { AppError } from '../errors';
import { writeAuditEvent, type AuditMetadataOf } from '../audit/write-audit-event';

export type MemberView = {
  userId: string;
  email: string;
  name: string;
  role: Role;
  deactivatedAt: Date | null;
  createdAt: Date;
};

/** The tenant's members with role and status, active first, then by name and email. */
export async function listMembers({ tenantId }: { tenantId: string }): Promise<MemberView[]> {
  const rows = await withTenant({ tenantId }, (tx) =>
    tx.membership.findMany({
      where: { tenantId },
      select: {
        role: true,
        deactivatedAt: true,
        createdAt: true,
        user: { select: { id: true, email: true, name: true } },
      },
    }),
  );
  return rows
    .map((m) => ({
      userId: m.user.id,
      email: m.user.email,
      name: m.user.name,
      role: m.role,
      deactivatedAt: m.deactivatedAt,
      createdAt: m.createdAt,
    }))
    .sort(
      (a, b) =>
        Number(a.deactivatedAt !== null) - Number(b.deactivatedAt !== null) ||
        (a.name || a.email).localeCompare(b.name || b.email),
    );
}

// The member's row, locked: changes to one membership wait for each other.
async function memberOf(tx: Tx, tenantId: string, userId: string) {
  const [rows] = await runInTransaction(tx, [
    statement<{ role: Role; deactivated_at: Date | null; email: string }>(`
    select m.role, m.deactivated_at, u.email from memberships m join users u on u.id = m.user_id
     where m.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
       and m.user_id = ${sqlLiteral(userId, 'uuid')} for update of m`),
  ]);
  if (rows.length !== 1) throw new AppError('not_found', 'No such member.');
  return rows[0]!;
}

/**
 * Changes a member's role (`member.role_changed`, from and to). The tenant's last active manager
 * cannot be demoted (`last_manager`, refused by the database whoever tries, two at once included).
 * The same role again changes nothing.
 */
export async function changeMemberRole(input: {
  tenantId: string;
  userId: string;
  role: Role;
  actor: Actor;
}): Promise<{ userId: string; role: Role; changed: boolean }> {
  const { tenantId, userId, role, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const member = await memberOf(tx, tenantId, userId);
    if (member.role === role) return { userId, role, changed: false };
    await tx.membership.update({ where: { tenantId_userId: { tenantId, userId } }, data: { role } });
    await audit(tx, tenantId, actor, 'member.role_changed', userId, {
      email: member.email,
      from: member.role,
      to: role,
    });
    return { userId, role, changed: true };
  });
}

/**
 * Deactivates a member (`member.deactivated`): from their next request on they have no session in
 * this tenant, and they cannot sign in unless another tenant keeps them. Reactivating gives it back
 * (`member.reactivated`). The last active manager cannot be deactivated (`last_manager`).
 */
export async function setMemberActive(input: {
  tenantId: string;
  userId: string;
  active: boolean;
  actor: Actor;
}): Promise<{ userId: string; active: boolean; changed: boolean }> {
  const { tenantId, userId, active, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const member = await memberOf(tx, tenantId, userId);
    if ((member.deactivated_at === null) === active) return { userId, active, changed: false };
    await tx.membership.update({
      where: { tenantId_userId: { tenantId, userId } },
      data: { deactivatedAt: active ? null : new Date() },
    });
    await audit(tx, tenantId, actor, active ? 'member.reactivated' : 'member.deactivated', userId, {
      email: member.email,
      role: member.role,
    });
    return { userId, active, changed: true };
  });
}

/** Clears a member's failed sign-ins from every address (what `cli user-unlock` does), audited `member.unlocked`. */
export async function unlockMember(input: {
  tenantId: string;
  userId: string;
  actor: Actor;
}): Promise<{ userId: string; cleared: number }> {
  const { tenantId, userId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const member = await memberOf(tx, tenantId, userId);
    const cleared = await clearSignInLimits(tx, userId);
    await audit(tx, tenantId, actor, 'member.unlocked', userId, { email: member.email, clearedLimits: cleared });
    return { userId, cleared };
  });
}

type MemberAction = 'member.role_changed' | 'member.reactivated' | 'member.deactivated' | 'member.unlocked';

function audit<A extends MemberAction>(
  tx: Tx,
  tenantId: string,
  actor: Actor,
  action: A,
  userId: string,
  metadata: AuditMetadataOf[A],
) {
  return writeAuditEvent<MemberAction>(tx, {
    tenantId,
    actor,
    action,
    subject: { type: 'user', id: userId },
    metadata,
  });
}
