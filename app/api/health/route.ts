import { json, withRequest } from '@/lib/api/http';
import { checkHealth } from '@/lib/health/check-health';

export const GET = withRequest(async ({ requestId }) => {
  const health = await checkHealth();
  return json(health, { status: health.status === 'ok' ? 200 : 503, requestId });
});
