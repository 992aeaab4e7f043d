import { scopedQuery, sqlLiteral } from '../db/tx';
import type { Role } from './permissions';

export type Membership = { tenantId: string; tenantName: string; role: Role };
export type StaffIdentity = {
  user: { id: string; email: string; name: string };
  memberships: Membership[];
};
export type StaffContext = StaffIdentity & { current: Membership };

/**
 * Loads a user and every tenant they are an active member of; `null` when the user no longer exists.
 * One statement in one round trip (every staff page asks it first).
 */
export async function loadStaffIdentity(userId: string): Promise<StaffIdentity | null> {
  const [rows] = await scopedQuery<StaffIdentity['user'] & { memberships: Membership[] }>({ role: 'app_service' }, [
    // A deactivated membership is no membership: its tenant is gone from the next request on.
    `select u.id, u.email, u.name,
            coalesce((select json_agg(json_build_object('tenantId', m.tenant_id, 'tenantName', t.name, 'role', m.role)
                                      order by m.created_at, m.tenant_id)
                        from memberships m join tenants t on t.id = m.tenant_id
                       where m.user_id = u.id and m.deactivated_at is null), '[]') as memberships
       from users u where u.id = ${sqlLiteral(userId, 'uuid')}`,
  ]);
  const found = rows![0];
  if (!found) return null;
  const { memberships, ...user } = found;
  return { user, memberships };
}

/** Picks the tenant the staff member works in: the requested one if they belong to it, else their first. */
export function pickMembership(identity: StaffIdentity, requestedTenantId: string | undefined): Membership | null {
  const requested = identity.memberships.find((m) => m.tenantId === requestedTenantId);
  return requested ?? identity.memberships[0] ?? null;
}
