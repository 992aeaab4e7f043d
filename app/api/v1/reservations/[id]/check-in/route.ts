import { apiKeyActor } from '@/lib/api/actor';
import { pathId } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { completeCheckIn } from '@/lib/checkin/complete-check-in';

export const dynamic = 'force-dynamic';

export const POST = withApiKey<{ id: string }>(async ({ principal, requestId }, { id }) => {
  const result = await completeCheckIn({ tenantId: principal.tenantId, reservationId: pathId(id), actor: apiKeyActor(principal) });
  return json({ data: result }, { requestId });
});
