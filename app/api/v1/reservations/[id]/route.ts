import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZChangeReservationBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { getReservation } from '@/lib/bookings/list-reservations';
import { changeReservationDates } from '@/lib/stays/change-dates';

export const GET = withApiKey<{ id: string }>(async ({ principal, requestId }, { id }) =>
  json({ data: await getReservation({ tenantId: principal.tenantId, reservationId: pathId(id) }) }, { requestId }),
);

export const PATCH = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const reservationId = pathId(id);
  const { startsAt, endsAt } = await readJson(request, ZChangeReservationBodySchema);
  const reservation = await changeReservationDates({
    tenantId: principal.tenantId,
    reservationId,
    startsAt,
    endsAt,
    actor: apiKeyActor(principal),
  });
  return json({ data: reservation }, { requestId });
});
