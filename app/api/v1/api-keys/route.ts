import { json } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { listApiKeys } from '@/lib/auth/list-api-keys';

export const GET = withApiKey(async ({ principal, requestId }) =>
  json({ data: await listApiKeys({ tenantId: principal.tenantId }), nextCursor: null }, { requestId }),
);
