import { apiKeyActor } from '@/lib/api/actor';
import { readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZCreateBookingGroupBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { bookGroup } from '@/lib/bookings/book-group';

export const POST = withApiKey(async ({ principal, request, requestId }) => {
  const body = await readJson(request, ZCreateBookingGroupBodySchema);
  const group = await bookGroup({
    tenantId: principal.tenantId,
    actor: apiKeyActor(principal),
    source: 'api',
    ...body,
  });
  return json({ data: group }, { status: 201, requestId });
});
