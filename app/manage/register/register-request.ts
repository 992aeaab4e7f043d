import 'server-only';
import { can } from '@/lib/auth/permissions';
import type { StaffContext } from '@/lib/auth/staff';
import { AppError } from '@/lib/errors';
import { getStaff } from '@/app/_server/staff';

/** The signed-in manager allowed to read the guest register, else 401 `unauthorized` / 403 `forbidden`. */
export async function requireRegisterReader(): Promise<StaffContext> {
  const staff = await getStaff();
  if (!staff) throw new AppError('unauthorized', 'Sign in to read the guest register.');
  if (!can(staff.current.role, 'register.view'))
    throw new AppError('forbidden', 'Your role may not read the guest register.');
  return staff;
}
