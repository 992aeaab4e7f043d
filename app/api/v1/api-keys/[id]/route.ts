import { pathId } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { getApiKey } from '@/lib/auth/list-api-keys';

export const GET = withApiKey<{ id: string }>(async ({ principal, requestId }, { id }) =>
  json({ data: await getApiKey({ tenantId: principal.tenantId, apiKeyId: pathId(id) }) }, { requestId }),
);
