import { json, withRequest } from '@/lib/api/http';
import { listReadableAuditEvents } from '@/lib/audit/readable-audit-events';
import { parseAuditQuery, requireAuditReader } from '../audit-request';

/** One page of the current tenant's audit events for the audit log page, each naming its stay, door and event: `{ data, nextCursor }`, newest first. */
export const GET = withRequest(async ({ request, requestId }) => {
  const staff = await requireAuditReader();
  const query = parseAuditQuery(request.url);
  const page = await listReadableAuditEvents({ tenantId: staff.current.tenantId, ...query });
  return json(page, { requestId });
});
