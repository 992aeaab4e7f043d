import { apiKeyActor } from '@/lib/api/actor';
import { pathId, readJson } from '@/lib/api/body';
import { json } from '@/lib/api/http';
import { ZCreateStaffCodeBodySchema } from '@/lib/api/schemas';
import { withApiKey } from '@/lib/api/with-api-key';
import { createStaffCode, listStaffCodes } from '@/lib/keys/staff-codes';

export const GET = withApiKey<{ id: string }>(async ({ principal, requestId }, { id }) =>
  json({ data: await listStaffCodes({ tenantId: principal.tenantId, roomId: pathId(id) }) }, { requestId }),
);

export const POST = withApiKey<{ id: string }>(async ({ principal, request, requestId }, { id }) => {
  const roomId = pathId(id);
  const body = await readJson(request, ZCreateStaffCodeBodySchema);
  const code = await createStaffCode({ tenantId: principal.tenantId, roomId, ...body, actor: apiKeyActor(principal) });
  return json({ data: code }, { status: 201, requestId });
});
