import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZRevokeKeyBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { revokeKey } from '@/lib/keys/revoke-key';

export const POST = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const keyId = pathId(id);
  const { reason } = await readJson(request, ZRevokeKeyBodySchema);
  const key = await revokeKey({ tenantId: principal.tenantId, keyId, reason, actor: apiKeyActor(principal) });
  return json({ data: key }, { requestId });
});
