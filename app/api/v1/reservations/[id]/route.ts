import { pathId } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { getReservation } from '@/lib/bookings/list-reservations';

export const GET = withApiKey<{ id: string }>(async ({ principal, requestId }, { id }) =>
  json({ data: await getReservation({ tenantId: principal.tenantId, reservationId: pathId(id) }) }, { requestId }),
);
