import { json } from '@/lib/api/http';
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
