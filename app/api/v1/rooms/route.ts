import { json, methodsNotAllowed } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { listRooms } from '@/lib/rooms/list-rooms';

export const GET = withApiKey(
  async ({ principal, requestId }) =>
    json(
      { data: await listRooms({ tenantId: principal.tenantId, apiKeyId: principal.apiKeyId }), nextCursor: null },
      { requestId },
    ),
  { keyCheckedInTransaction: true },
);

// This route skips the proxy (proxy.ts): other methods get their 405 here and OPTIONS its Allow, with a request id.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['GET']);
