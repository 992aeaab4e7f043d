import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZReissueKeyBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { reissueKey } from '@/lib/keys/reissue-key';

export const POST = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const keyId = pathId(id);
  const { reason } = await readJson(request, ZReissueKeyBodySchema);
  const key = await reissueKey({ tenantId: principal.tenantId, keyId, reason, actor: apiKeyActor(principal) });
  return json({ data: key }, { requestId });
});
