import { readRawBody } from '@/lib/api/body';
import { json, withRequest } from '@/lib/api/http';
import { receiveCalWebhook } from '@/lib/webhooks/receive-booking-provider';

export const dynamic = 'force-dynamic';

export const POST = withRequest<{ tenantId: string }>(async ({ request, requestId }, { tenantId }) => {
  const raw = await readRawBody(request);
  const { duplicate } = await receiveCalWebhook({ tenantIdParam: tenantId, raw, signature: request.headers.get('x-cal-signature-256') });
  return json({ received: true, duplicate }, { requestId });
});
