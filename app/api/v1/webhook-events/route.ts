import { readQuery } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZListWebhookEventsQuerySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { listWebhookEvents } from '@/lib/webhooks/list-webhook-events';

export const GET = withApiKey(async ({ principal, request, requestId }) =>
  json(
    await listWebhookEvents({ tenantId: principal.tenantId, ...readQuery(request, ZListWebhookEventsQuerySchema) }),
    { requestId },
  ),
);
