import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZCheckOutBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { checkOutReservation } from '@/lib/stays/check-out';

export const POST = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const reservationId = pathId(id);
  await readJson(request, ZCheckOutBodySchema, { optional: true });
  const reservation = await checkOutReservation({
    tenantId: principal.tenantId,
    reservationId,
    actor: apiKeyActor(principal),
  });
  return json({ data: reservation }, { requestId });
});
