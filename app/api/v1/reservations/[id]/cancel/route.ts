import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZCancelBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { cancelReservation } from '@/lib/bookings/cancel-reservation';

export const POST = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const reservationId = pathId(id);
  const { reason } = await readJson(request, ZCancelBodySchema);
  return json(
    {
      data: await cancelReservation({
        tenantId: principal.tenantId,
        reservationId,
        reason,
        actor: apiKeyActor(principal),
      }),
    },
    { requestId },
  );
});
