import { readQuery } from '@/lib/api/body';
import { json, methodsNotAllowed } from '@/lib/api/http';
import { ZListReservationsQuerySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { listReservations } from '@/lib/bookings/list-reservations';

export const GET = withApiKey(
  async ({ principal, request, requestId }) => {
    const query = readQuery(request, ZListReservationsQuerySchema);
    return json(await listReservations({ tenantId: principal.tenantId, apiKeyId: principal.apiKeyId, ...query }), {
      requestId,
    });
  },
  { keyCheckedInTransaction: true },
);

// This route skips the proxy (proxy.ts): other methods get their 405 here and OPTIONS its Allow, with a request id.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
