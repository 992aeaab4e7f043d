import { json, methodsNotAllowed, withRequest } from '@/lib/api/http';
import { checkHealth } from '@/lib/health/check-health';

export const GET = withRequest(async ({ requestId }) => {
  const health = await checkHealth();
  return json(health, { status: health.status === 'ok' ? 200 : 503, requestId });
});

// This route skips the proxy (proxy.ts): other methods get their 405 here and OPTIONS its Allow, with a request id.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
