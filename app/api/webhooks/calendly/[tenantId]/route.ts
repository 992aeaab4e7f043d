import { readRawBody } from '@/lib/api/body';
import { json, methodNotAllowed, withRequest } from '@/lib/api/http';
import { receiveCalendlyWebhook } from '@/lib/webhooks/receive-booking-provider';

export const dynamic = 'force-dynamic';

export const POST = withRequest<{ tenantId: string }>(async ({ request, requestId }, { tenantId }) => {
  const raw = await readRawBody(request);
  const { duplicate } = await receiveCalendlyWebhook({ tenantIdParam: tenantId, raw, signature: request.headers.get('calendly-webhook-signature') });
  return json({ received: true, duplicate }, { requestId });
});

// This route skips the proxy (proxy.ts): other methods get their 405 here, with a request id.
const notAllowed = methodNotAllowed(['POST']);
export const GET = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
export const OPTIONS = notAllowed;
