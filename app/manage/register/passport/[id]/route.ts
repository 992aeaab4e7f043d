import { pathId } from '@/lib/api/body';
import { privateImage, withRequest } from '@/lib/api/http';
import { readPassportImage } from '@/lib/registration/register-day';
import { requireRegisterReader } from '../../register-request';

/** One guest's passport photo, decrypted for a manager; each opening audited `registration.viewed`. */
export const GET = withRequest<{ id: string }>(async (_context, { id }) => {
  const staff = await requireRegisterReader();
  const image = await readPassportImage({ tenantId: staff.current.tenantId, userId: staff.user.id }, pathId(id));
  return privateImage(image);
});
