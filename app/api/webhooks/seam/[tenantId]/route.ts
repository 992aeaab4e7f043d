import { readRawBody } from '@/lib/http/body';
import { json, methodsNotAllowed, withRequest } from '@/lib/api/http';
import { receiveSeamWebhook } from '@/lib/webhooks/seam/receive';

export const POST = withRequest<{ tenantId: string }>(async ({ request, requestId }, { tenantId }) => {
  const raw = await readRawBody(request);
  const { duplicate } = await receiveSeamWebhook({
    tenantIdParam: tenantId,
    raw,
    headers: {
      id: request.headers.get('svix-id'),
      timestamp: request.headers.get('svix-timestamp'),
      signature: request.headers.get('svix-signature'),
    },
  });
  return json({ received: true, duplicate }, { requestId });
});

// This route skips the proxy (proxy.ts): other methods get their 405 here and OPTIONS its Allow, with a request id.
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
