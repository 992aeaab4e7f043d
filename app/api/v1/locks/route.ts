import { json } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { listLocks } from '@/lib/locks/locks';

export const GET = withApiKey(async ({ principal, requestId }) =>
  json({ data: await listLocks({ tenantId: principal.tenantId }), nextCursor: null }, { requestId }),
);
