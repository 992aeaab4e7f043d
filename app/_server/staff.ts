import 'server-only';
import { getServerSession } from 'next-auth';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { authOptions } from '@/lib/auth/auth-options';
import { can, type Permission } from '@/lib/auth/permissions';
import { loadStaffIdentity, pickMembership, type StaffContext } from '@/lib/auth/staff';

export const TENANT_COOKIE = 'unlockos_tenant';

/** The signed-in staff member and the tenant they are working in, or null (once per request). */
export const getStaff = cache(async (): Promise<StaffContext | null> => {
  const session = (await getServerSession(authOptions)) as { userId?: string } | null;
  if (!session?.userId) return null;
  const identity = await loadStaffIdentity(session.userId);
  if (!identity) return null;
  const current = pickMembership(identity, (await cookies()).get(TENANT_COOKIE)?.value);
  return current ? { ...identity, current } : null;
});

/**
 * Guards a page: signed out → the sign-in page (returning here afterwards);
 * signed in without the permission in the current tenant → the forbidden page.
 */
export async function requireStaff(permission: Permission, returnTo: string): Promise<StaffContext> {
  const staff = await getStaff();
  if (!staff) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  if (!can(staff.current.role, permission)) redirect('/forbidden');
  return staff;
}
