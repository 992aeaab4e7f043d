import { asService } from '../db/tx';
import type { Role } from './permissions';

export type Membership = { tenantId: string; tenantName: string; role: Role };
export type StaffIdentity = {
  user: { id: string; email: string; name: string };
  memberships: Membership[];
};
export type StaffContext = StaffIdentity & { current: Membership };

/** Loads a user and every tenant they are an active member of; `null` when the user no longer exists. */
export async function loadStaffIdentity(userId: string): Promise<StaffIdentity | null> {
  return asService(async (tx) => {
    const user = await tx.user.findUnique({
      where: { id: userId },
      // A deactivated membership is no membership: its tenant is gone from the next request on.
      include: {
        memberships: { where: { deactivatedAt: null }, include: { tenant: true }, orderBy: { createdAt: 'asc' } },
      },
    });
    if (!user) return null;
    return {
      user: { id: user.id, email: user.email, name: user.name },
      memberships: user.memberships.map((m) => ({ tenantId: m.tenantId, tenantName: m.tenant.name, role: m.role })),
    };
  });
}

/** Picks the tenant the staff member works in: the requested one if they belong to it, else their first. */
export function pickMembership(identity: StaffIdentity, requestedTenantId: string | undefined): Membership | null {
  const requested = identity.memberships.find((m) => m.tenantId === requestedTenantId);
  return requested ?? identity.memberships[0] ?? null;
}
