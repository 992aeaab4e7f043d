import { apiKeyActor } from '@/lib/api/actor';
import { pathId } from '@/lib/api/body';
import { json, methodsNotAllowed } from '@/lib/api/http';
import { withApiKey } from '@/lib/api/with-api-key';
import { issueCheckInKey } from '@/lib/stays/issue-check-in-key';

export const POST = withApiKey<{ id: string }>(
  async ({ principal, requestId }, { id }) => {
    const key = await issueCheckInKey({
      tenantId: principal.tenantId,
      checkInId: pathId(id),
      actor: apiKeyActor(principal),
      apiKeyId: principal.apiKeyId,
    });
    return json({ data: key }, { requestId });
  },
  { keyCheckedInTransaction: true },
);

// This route skips the proxy (proxy.ts): other methods get their 405 here and OPTIONS its Allow, with a request id.
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(['POST']);
