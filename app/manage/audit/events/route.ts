import { json, withRequest } from '@/lib/api/http';
import { listAuditEvents } from '@/lib/audit/list-audit-events';
import { parseAuditQuery, requireAuditReader } from '../audit-request';

/** One page of the current tenant's audit events for the audit log page: `{ data, nextCursor }`, newest first. */
export const GET = withRequest(async ({ request, requestId }) => {
  const staff = await requireAuditReader();
  const query = parseAuditQuery(request.url);
  const page = await listAuditEvents({ tenantId: staff.current.tenantId, ...query });
  return json(page, { requestId });
});
