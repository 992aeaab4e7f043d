import { withRequest } from '@/lib/api/http';
import { pathId } from '@/lib/api/body';
import { can } from '@/lib/auth/permissions';
import { AppError } from '@/lib/errors';
import { photoResponse, readRoomTypePhoto } from '@/lib/room-types/photos';
import { getStaff } from '@/app/_server/staff';

/** One of the current tenant's room type photos, for the manager's pages (published or not); another tenant's is 404. */
export const GET = withRequest<{ id: string; photoId: string }>(async (_context, params) => {
  const staff = await getStaff();
  if (!staff) throw new AppError('unauthorized', 'Sign in to see this photo.');
  if (!can(staff.current.role, 'property.manage')) throw new AppError('forbidden', 'Your role may not see this photo.');
  const photo = await readRoomTypePhoto({ tenantId: staff.current.tenantId, photoId: pathId(params.photoId) });
  if (!photo) throw new AppError('not_found', 'No such photo.');
  return photoResponse(photo, 'private');
});
