import { readRawBody } from '@/lib/http/body';
import { json, methodsNotAllowed, withRequest } from '@/lib/api/http';
import { receiveCalWebhook } from '@/lib/webhooks/receive-booking-provider';

export const POST = withRequest<{ tenantId: string }>(async ({ request, requestId }, { tenantId }) => {
  const raw = await readRawBody(request);
  const { duplicate } = await receiveCalWebhook({
    tenantIdParam: tenantId,
    raw,
    signature: request.headers.get('x-cal-signature-256'),
  });
  return json({ received: true, duplicate }, { requestId });
});

// This route skips the proxy (proxy.ts): other methods get their 405 here and OPTIONS its Allow, with a request id.
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
