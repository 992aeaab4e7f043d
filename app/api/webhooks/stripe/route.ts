import { readRawBody } from '@/lib/http/body';
import { json, methodsNotAllowed, withRequest } from '@/lib/api/http';
import { receiveStripeWebhook } from '@/lib/webhooks/stripe/receive';

export const POST = withRequest(async ({ request, requestId }) => {
  const raw = await readRawBody(request);
  const { duplicate } = await receiveStripeWebhook(raw, request.headers.get('stripe-signature'));
  return json({ received: true, duplicate }, { requestId });
});

// This route skips the proxy (proxy.ts): other methods get their 405 here and OPTIONS its Allow, with a request id.
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
