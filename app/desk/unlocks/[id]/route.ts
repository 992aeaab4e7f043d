import { json, withRequest } from '@/lib/api/http';
import { pathId } from '@/lib/api/body';
import { can } from '@/lib/auth/permissions';
import { AppError } from '@/lib/errors';
import { remoteUnlockState } from '@/lib/locks/remote-unlock-state';
import { getStaff } from '@/app/_server/staff';

/**
 * Where one remote unlock of the current tenant stands, `{ data: { id, status, error } }`: what "Open door" polls
 * while the lock has not confirmed (404 for another tenant's or none).
 */
export const GET = withRequest<{ id: string }>(async ({ requestId }, params) => {
  const staff = await getStaff();
  if (!staff) throw new AppError('unauthorized', 'Sign in first.');
  if (!can(staff.current.role, 'doors.unlock')) throw new AppError('forbidden', 'Not allowed.');
  const state = await remoteUnlockState({
    tenantId: staff.current.tenantId,
    userId: staff.user.id,
    remoteUnlockId: pathId(params.id),
  });
  if (!state) throw new AppError('not_found', 'No such remote unlock.');
  return json({ data: state }, { requestId });
});
