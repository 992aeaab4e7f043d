import { pathId } from '@/lib/api/body';
import { withRequest } from '@/lib/api/http';
import { readPassportImage } from '@/lib/registration/register-day';
import { requireRegisterReader } from '../../register-request';

/** One guest's passport photo, decrypted for a manager; each opening audited `registration.viewed`. */
export const GET = withRequest<{ id: string }>(async (_context, { id }) => {
  const staff = await requireRegisterReader();
  const image = await readPassportImage({ tenantId: staff.current.tenantId, userId: staff.user.id }, pathId(id));
  return new Response(new Uint8Array(image.bytes), {
    headers: {
      'content-type': image.type,
      'content-disposition': 'inline',
      // Personal data: never kept by a browser or a proxy.
      'cache-control': 'no-store, private',
      'x-content-type-options': 'nosniff',
    },
  });
});
