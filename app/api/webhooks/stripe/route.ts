import { readRawBody } from '@/lib/api/body';
import { json, methodNotAllowed, withRequest } from '@/lib/api/http';
import { receiveStripeWebhook } from '@/lib/webhooks/stripe/receive';

export const dynamic = 'force-dynamic';

export const POST = withRequest(async ({ request, requestId }) => {
  const raw = await readRawBody(request);
  const { duplicate } = await receiveStripeWebhook(raw, request.headers.get('stripe-signature'));
  return json({ received: true, duplicate }, { requestId });
});

// This route skips the proxy (proxy.ts): other methods get their 405 here, with a request id.
const notAllowed = methodNotAllowed(['POST']);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = notAllowed;
