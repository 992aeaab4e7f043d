import { z } from 'zod';
import { invalidRequest, json, withRequest } from '@/lib/api/http';
import { can } from '@/lib/auth/permissions';
import { deskSyncState, MAX_WATCHED } from '@/lib/bookings/desk-sync-state';
import { AppError } from '@/lib/errors';
import { getStaff } from '@/app/_server/staff';

const ZLiveQuerySchema = z.array(z.uuid()).max(MAX_WATCHED);

/**
 * What an open desk screen polls: `{ data: { pending, fingerprint } }` for the current tenant's
 * reservations in `ids` (comma-separated), so it reloads only when a key, a door or a stay changed.
 */
export const GET = withRequest(async ({ request, requestId }) => {
  const staff = await getStaff();
  if (!staff) throw new AppError('unauthorized', 'Sign in first.');
  if (!can(staff.current.role, 'desk.view')) throw new AppError('forbidden', 'Not allowed.');
  const ids = new URL(request.url).searchParams.get('ids') ?? '';
  const parsed = ZLiveQuerySchema.safeParse(ids === '' ? [] : ids.split(','));
  if (!parsed.success) throw invalidRequest(parsed.error);
  const state = await deskSyncState({
    tenantId: staff.current.tenantId,
    userId: staff.user.id,
    reservationIds: parsed.data,
  });
  return json({ data: state }, { requestId });
});
