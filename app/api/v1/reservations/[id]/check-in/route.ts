import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZCheckInBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { completeCheckIn } from '@/lib/stays/complete-check-in';

export const POST = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const reservationId = pathId(id);
  const { early } = await readJson(request, ZCheckInBodySchema, { optional: true });
  const result = await completeCheckIn({
    tenantId: principal.tenantId,
    reservationId,
    actor: apiKeyActor(principal),
    early,
  });
  return json({ data: result }, { requestId });
});
