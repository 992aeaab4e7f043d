import 'server-only';
import { getServerSession } from 'next-auth';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { authOptions, type SessionClaims } from '@/lib/auth/auth-options';
import { can, type Permission } from '@/lib/auth/permissions';
import { loadStaffIdentity, pickMembership, type StaffContext, type StaffIdentity } from '@/lib/auth/staff';

export const TENANT_COOKIE = 'unlockos_tenant';

/**
 * Remembers the tenant this browser works in, for a year. Only a preference: getStaff() re-checks the
 * membership on every request.
 */
export async function rememberTenant(tenantId: string): Promise<void> {
  (await cookies()).set(TENANT_COOKIE, tenantId, {
    path: '/',
    maxAge: 365 * 24 * 60 * 60,
    sameSite: 'lax',
    httpOnly: true,
  });
}

/**
 * The signed-in account, member of a tenant or not, or null (once per request). A session whose
 * generation is no longer the account's (its password changed since) is no session.
 */
export const getAccount = cache(async (): Promise<StaffIdentity | null> => {
  const session = (await getServerSession(authOptions)) as SessionClaims | null;
  if (!session?.userId) return null;
  return loadStaffIdentity(session.userId, session.sessionGeneration ?? 0);
});

/**
 * The signed-in staff member and the tenant they are working in, or null (once per request). An
 * account whose password must be replaced first works in no tenant until it is.
 */
export const getStaff = cache(async (): Promise<StaffContext | null> => {
  const identity = await getAccount();
  if (!identity || identity.mustChangePassword) return null;
  const current = pickMembership(identity, (await cookies()).get(TENANT_COOKIE)?.value);
  return current ? { ...identity, current } : null;
});

/**
 * Where a request without a working tenant goes: "choose your password" first when the account's
 * password is a one-time one, else the sign-in page (which tells an account signed in without any
 * tenant what to do), returning to `returnTo` afterwards.
 */
export async function redirectWithoutStaff(returnTo: string): Promise<never> {
  const account = await getAccount();
  const back = encodeURIComponent(returnTo);
  if (account?.mustChangePassword) redirect(`/account/password?returnTo=${back}`);
  redirect(`/sign-in?callbackUrl=${back}`);
}

/**
 * Guards a page: signed out → the sign-in page (returning here afterwards); a one-time password →
 * "choose your password"; signed in without the permission in the current tenant → the forbidden page.
 */
export async function requireStaff(permission: Permission, returnTo: string): Promise<StaffContext> {
  const staff = await getStaff();
  if (!staff) return redirectWithoutStaff(returnTo);
  if (!can(staff.current.role, permission)) redirect('/forbidden');
  return staff;
}

/** Guards an account page: any signed-in account (a one-time password included); signed out → sign-in. */
export async function requireAccount(returnTo: string): Promise<StaffIdentity> {
  const account = await getAccount();
  if (!account) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return account;
}
