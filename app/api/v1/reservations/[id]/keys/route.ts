import { pathId } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { listReservationKeys } from '@/lib/keys/list-reservation-keys';

export const GET = withApiKey<{ id: string }>(async ({ principal, requestId }, { id }) =>
  json({ data: await listReservationKeys({ tenantId: principal.tenantId, reservationId: pathId(id) }) }, { requestId }),
);
