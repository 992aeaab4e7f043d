import { readQuery } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZListAuditEventsQuerySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { listAuditEvents } from '@/lib/audit/list-audit-events';

export const GET = withApiKey(async ({ principal, request, requestId }) =>
  json(await listAuditEvents({ tenantId: principal.tenantId, ...readQuery(request, ZListAuditEventsQuerySchema) }), {
    requestId,
  }),
);
