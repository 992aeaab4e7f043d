import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZMoveReservationBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { moveReservation } from '@/lib/stays/move-reservation';

export const POST = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const reservationId = pathId(id);
  const { roomId, reason } = await readJson(request, ZMoveReservationBodySchema);
  const reservation = await moveReservation({
    tenantId: principal.tenantId,
    reservationId,
    roomId,
    reason,
    actor: apiKeyActor(principal),
  });
  return json({ data: reservation }, { requestId });
});
